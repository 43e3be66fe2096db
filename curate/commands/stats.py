"""`curate stats`: what a workspace holds, per source, category, level, licence and parse status."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from curate.commands.options import WorkspaceOption
from curate.wording import plural
from curate.workspace import DEFAULT_WORKSPACE, Workspace

if TYPE_CHECKING:
    from rich.table import Table


def register(app: typer.Typer) -> None:
    app.command("stats")(stats)


def stats(
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    brief: Annotated[bool, typer.Option("--brief", help="Print one summary line.")] = False,
) -> None:
    """Summarise a workspace."""
    from rich.console import Console  # imported when the command runs: `stats --help` need not

    from curate.stages.stats import brief_line, workspace_stats

    data = workspace_stats(Workspace(workspace))
    if as_json:
        print(json.dumps(data, indent=2, sort_keys=True))
        return
    if brief:
        print(brief_line(data))
        return
    console = Console()
    headline = f"{plural(data.get('units', 0), 'unit')} ({plural(data.get('loc', 0), 'line')})"
    if "benchmark_items" in data:
        headline += f", {plural(data['benchmark_items'], 'benchmark item')}"
    console.print(f"[bold]{data['workspace']}[/]: {headline}", highlight=False)
    if "size" in data:
        console.print(size_table(data["size"]))
        size = data["size"]
        console.print(
            f"{plural(size['over_max_unit_lines'], 'unit')} over max_unit_lines={size['max_unit_lines']}: "
            "deduplicated and audited, not annotated or published",
            highlight=False,
        )
    for key, values in data.items():
        if key.startswith(("by_", "benchmark_by_")):
            console.print(count_table(key.replace("_", " "), values))


def size_table(size: dict[str, Any]) -> Table:
    """One row per quantile, one column per measure: three number columns fit any terminal, where
    ten columns of seven-digit numbers were cut ("22593…")."""
    from rich.table import Table

    table = Table(title="unit size (tokens = ceil(chars / 4))", title_justify="left")
    measures = ("lines", "chars", "tokens")
    table.add_column("")
    for measure in measures:
        table.add_column(measure, justify="right", no_wrap=True)
    for name in size["lines"]:
        table.add_row(name, *(f"{size[m][name]:,}" for m in measures))
    return table


def count_table(title: str, values: dict[str, int]) -> Table:
    from rich.table import Table

    table = Table(title=title, title_justify="left", show_header=False, min_width=len(title))
    table.add_column(overflow="fold")
    table.add_column(justify="right", no_wrap=True)
    for label, count in values.items():
        table.add_row(label, f"{count:,}")
    return table
