"""The stats stage: what a workspace holds, per source, category, level, licence and parse status."""

from __future__ import annotations

from typing import Any

import polars as pl
import pyarrow.parquet as pq

from curate.errors import UserError
from curate.workspace import Workspace
from schemas import DEFAULT_MAX_UNIT_LINES, code_size

_UNIT_DIMENSIONS = ("source", "category", "level", "license", "parse_status", "layout", "core_type")
_BENCH_DIMENSIONS = ("benchmark", "level", "category")


def _counts(frame: pl.DataFrame, column: str) -> dict[str, int]:
    counted = frame.group_by(column).len().sort(["len", column], descending=[True, False])
    return {str(k): int(n) for k, n in counted.iter_rows()}


_QUANTILES = {"p10": 0.1, "p25": 0.25, "median": 0.5, "p75": 0.75, "p90": 0.9, "p99": 0.99}


def size_distribution(units: pl.DataFrame, max_unit_lines: int = DEFAULT_MAX_UNIT_LINES) -> dict[str, Any]:
    """Quantiles of unit size (assembled lines, characters, tokens = ceil(chars / 4)) and how many
    units are over `max_unit_lines` (those are not annotated or published)."""
    out: dict[str, Any] = {}
    for column in ("lines", "chars", "tokens"):
        values = sorted(int(v) for v in units[column].to_list())
        at = {name: values[min(len(values) - 1, int(q * len(values)))] for name, q in _QUANTILES.items()}
        out[column] = {"min": values[0], **at, "max": values[-1]}
    out["max_unit_lines"] = max_unit_lines
    out["over_max_unit_lines"] = int((units["lines"] > max_unit_lines).sum()) if max_unit_lines else 0
    return out


def _sizes(ws: Workspace) -> pl.DataFrame:
    """lines/chars/tokens of every unit; computed from `code` for tables written before those columns."""
    names = pq.read_schema(ws.units).names
    if {"lines", "chars", "tokens"} <= set(names):
        frame = pl.read_parquet(ws.units, columns=["lines", "chars", "tokens", "code"])
        if frame.filter((pl.col("lines") == 0) & (pl.col("code") != "")).height == 0:
            return frame.drop("code")
    codes = pl.read_parquet(ws.units, columns=["code"])["code"].to_list()
    return pl.DataFrame([code_size(c) for c in codes], schema=["lines", "chars", "tokens"], orient="row")


def workspace_stats(ws: Workspace) -> dict[str, Any]:
    if not ws.units.exists() and not ws.benchmark.exists():
        raise UserError(f"{ws.root} holds no tables; run `curate ingest SOURCE --workspace {ws.root}` first")
    out: dict[str, Any] = {"workspace": str(ws.root)}
    if ws.units.exists():
        units = pl.read_parquet(ws.units, columns=[*_UNIT_DIMENSIONS, "loc"])
        out["units"] = units.height
        out["loc"] = int(units["loc"].sum() or 0)
        out.update({f"by_{d}": _counts(units, d) for d in _UNIT_DIMENSIONS})
        if units.height:
            out["size"] = size_distribution(_sizes(ws))
    if ws.benchmark.exists():
        bench = pl.read_parquet(ws.benchmark, columns=list(_BENCH_DIMENSIONS))
        out["benchmark_items"] = bench.height
        out.update({f"benchmark_by_{d}": _counts(bench, d) for d in _BENCH_DIMENSIONS})
    if ws.decisions.exists():
        out["by_decision"] = _counts(pl.read_parquet(ws.decisions, columns=["decision"]), "decision")
    if ws.annotations.exists():
        out["by_verdict"] = _counts(pl.read_parquet(ws.annotations, columns=["verdict"]), "verdict")
    return out


def brief_line(data: dict[str, Any]) -> str:
    """One line: units, benchmark items, what dedup removed, what verification accepted."""
    parts = [f"{data.get('units', 0)} units", f"{data.get('benchmark_items', 0)} benchmark items"]
    if "by_decision" in data:
        d = data["by_decision"]
        parts.append(
            f"dedup kept {d.get('keep', 0)}, removed {d.get('leak', 0)} leaks and {d.get('duplicate', 0)} duplicates"
        )
    if "by_verdict" in data:
        v = data["by_verdict"]
        parts.append(
            f"annotations {v.get('accepted', 0)} accepted, {v.get('rejected', 0)} rejected, {v.get('failed', 0)} failed"
        )
    return f"{data['workspace']}: " + "; ".join(parts)
