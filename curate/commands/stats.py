"""`curate stats`: what a workspace holds, per source, category, level, licence and parse status."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from curate.commands.options import WorkspaceOption
from curate.workspace import DEFAULT_WORKSPACE, Workspace


def register(app: typer.Typer) -> None:
    app.command("stats")(stats)


def stats(
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    brief: Annotated[bool, typer.Option("--brief", help="Print one summary line.")] = False,
) -> None:
    """Summarise a workspace."""
    from rich.console import Console  # imported when the command runs: `stats --help` need not
    from rich.table import Table

    from curate.stages.stats import brief_line, workspace_stats

    data = workspace_stats(Workspace(workspace))
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
    if "size" in data:
        size = data["size"]
        table = Table(title="unit size (tokens = ceil(chars / 4))", title_justify="left")
        columns = [k for k in size["lines"] if k != "min"]
        table.add_column("")
        for name in ["min", *columns]:
            table.add_column(name, justify="right")
        for measure in ("lines", "chars", "tokens"):
            table.add_row(measure, *(str(size[measure][name]) for name in ["min", *columns]))
        console.print(table)
        console.print(
            f"{size['over_max_unit_lines']} units over max_unit_lines={size['max_unit_lines']}: "
            "deduplicated and audited, not annotated or published"
        )
    for key, values in data.items():
        if not key.startswith(("by_", "benchmark_by_")):
            continue
        table = Table(title=key.replace("_", " "), title_justify="left", show_header=False)
        for label, count in values.items():
            table.add_row(label, str(count))
        console.print(table)
