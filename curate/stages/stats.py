"""The stats stage: what a workspace holds, per source, category, level, licence and parse status.

Tables are read through the schema-checked reader (`schemas.read_table`, only the columns a
figure needs), so a damaged table is one line naming its file and column, never a traceback."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

from curate.errors import UserError
from curate.wording import plural
from curate.workspace import Workspace
from schemas import (
    DEFAULT_MAX_UNIT_LINES,
    Annotation,
    BenchmarkItem,
    Decision,
    KernelUnit,
    code_size,
    read_table,
)

_UNIT_DIMENSIONS = ("source", "category", "level", "license", "parse_status", "layout", "core_type")
_BENCH_DIMENSIONS = ("benchmark", "level", "category")


def _read(path: Path, cls: type, columns: Sequence[str]) -> pl.DataFrame:
    frame = pl.from_arrow(read_table(path, cls, columns=columns))
    assert isinstance(frame, pl.DataFrame)
    return frame


def _counts(frame: pl.DataFrame, column: str) -> dict[str, int]:
    """Most frequent first; levels in their own order (1, 2, 3), which is how they are read."""
    counted = frame.group_by(column).len()
    if column == "level":
        counted = counted.sort(column)
    else:
        counted = counted.sort(["len", column], descending=[True, False])
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
    frame = _read(ws.units, KernelUnit, ["lines", "chars", "tokens", "code"])
    if frame.filter((pl.col("lines").fill_null(0) == 0) & (pl.col("code") != "")).height == 0:
        return frame.drop("code")
    codes = frame["code"].to_list()
    return pl.DataFrame([code_size(c) for c in codes], schema=["lines", "chars", "tokens"], orient="row")


def workspace_stats(ws: Workspace) -> dict[str, Any]:
    if not ws.units.exists() and not ws.benchmark.exists():
        raise UserError(f"{ws.root} holds no tables; run `curate ingest SOURCE --workspace {ws.root}` first")
    out: dict[str, Any] = {"workspace": str(ws.root)}
    if ws.units.exists():
        units = _read(ws.units, KernelUnit, [*_UNIT_DIMENSIONS, "loc"])
        out["units"] = units.height
        out["loc"] = int(units["loc"].sum() or 0)
        out.update({f"by_{d}": _counts(units, d) for d in _UNIT_DIMENSIONS})
        if units.height:
            out["size"] = size_distribution(_sizes(ws))
    if ws.benchmark.exists():
        bench = _read(ws.benchmark, BenchmarkItem, _BENCH_DIMENSIONS)
        out["benchmark_items"] = bench.height
        out.update({f"benchmark_by_{d}": _counts(bench, d) for d in _BENCH_DIMENSIONS})
    if ws.decisions.exists():
        out["by_decision"] = _counts(_read(ws.decisions, Decision, ["decision"]), "decision")
    if ws.annotations.exists():
        out["by_verdict"] = _counts(_read(ws.annotations, Annotation, ["verdict"]), "verdict")
    return out


def brief_line(data: dict[str, Any]) -> str:
    """One line: units, benchmark items, what dedup removed, what verification accepted."""
    parts = [plural(data.get("units", 0), "unit"), plural(data.get("benchmark_items", 0), "benchmark item")]
    if "by_decision" in data:
        d = data["by_decision"]
        parts.append(
            f"dedup kept {d.get('keep', 0):,}, removed {plural(d.get('leak', 0), 'leak')} and "
            f"{plural(d.get('duplicate', 0), 'duplicate')}"
        )
    if "by_verdict" in data:
        v = data["by_verdict"]
        parts.append(
            f"annotations {v.get('accepted', 0):,} accepted, {v.get('rejected', 0):,} rejected, "
            f"{v.get('failed', 0):,} failed"
        )
    return f"{data['workspace']}: " + "; ".join(parts)
