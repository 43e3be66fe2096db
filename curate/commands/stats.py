"""`curate stats`: what a workspace holds, per source, category, level, licence and parse status."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import polars as pl
import typer
from rich.console import Console
from rich.table import Table

from curate.commands.ingest import WorkspaceOption
from curate.errors import UserError
from curate.workspace import DEFAULT_WORKSPACE, Workspace

_UNIT_DIMENSIONS = ("source", "category", "level", "license", "parse_status", "layout", "core_type")
_BENCH_DIMENSIONS = ("benchmark", "level", "category")


def register(app: typer.Typer) -> None:
    app.command("stats")(stats)


def _counts(frame: pl.DataFrame, column: str) -> dict[str, int]:
    counted = frame.group_by(column).len().sort(["len", column], descending=[True, False])
    return {str(k): int(n) for k, n in counted.iter_rows()}


def workspace_stats(ws: Workspace) -> dict[str, Any]:
    if not ws.units.exists() and not ws.benchmark.exists():
        raise UserError(f"{ws.root} holds no tables; run `curate ingest SOURCE --workspace {ws.root}` first")
    out: dict[str, Any] = {"workspace": str(ws.root)}
    if ws.units.exists():
        units = pl.read_parquet(ws.units, columns=[*_UNIT_DIMENSIONS, "loc"])
        out["units"] = units.height
        out["loc"] = int(units["loc"].sum() or 0)
        out.update({f"by_{d}": _counts(units, d) for d in _UNIT_DIMENSIONS})
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


def stats(
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    brief: Annotated[bool, typer.Option("--brief", help="Print one summary line.")] = False,
) -> None:
    """Summarise a workspace."""
    data = workspace_stats(Workspace(Path(workspace)))
    if as_json:
        print(json.dumps(data, indent=2, sort_keys=True))
        return
    if brief:
        print(brief_line(data))
        return
    console = Console()
    headline = f"{data.get('units', 0)} units ({data.get('loc', 0)} lines)"
    if "benchmark_items" in data:
        headline += f", {data['benchmark_items']} benchmark items"
    console.print(f"[bold]{data['workspace']}[/]: {headline}")
    for key, values in data.items():
        if not key.startswith(("by_", "benchmark_by_")):
            continue
        table = Table(title=key.replace("_", " "), title_justify="left", show_header=False)
        for label, count in values.items():
            table.add_row(label, str(count))
        console.print(table)
