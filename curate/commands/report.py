"""`curate report`: one self-contained HTML page about a workspace, and its figures for the card."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from curate.commands.options import JsonOption, WorkspaceOption
from curate.workspace import DEFAULT_WORKSPACE


def register(app: typer.Typer) -> None:
    app.command("report")(report)


def report(
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="Where to write the page (default: WORKSPACE/reports/report.html)."),
    ] = None,
    max_leaks: Annotated[
        int, typer.Option(help="Leaks listed in the table, strongest first (the total is always given).")
    ] = 500,
    max_views: Annotated[
        int, typer.Option(help="Leaks shown side by side with their benchmark answer.")
    ] = 40,
    as_json: JsonOption = False,
) -> None:
    """Write an HTML report (composition, funnel, leaks, verification) that opens offline, and its
    figures as PNG/SVG in WORKSPACE/reports/figures/ for the dataset card."""
    from curate.report import write_report  # matplotlib and polars load only for this command
    from curate.workspace import Workspace

    written = write_report(Workspace(workspace), out, max_leaks, max_views)
    if as_json:
        record = {
            "html": str(written.html),
            "bytes": written.bytes,
            "figures": [str(p) for p in written.figures],
            "seconds": round(written.seconds, 3),
        }
        print(json.dumps(record))
        return
    figures = (
        f"{len(written.figures)} figure files in {written.figures[0].parent}"
        if written.figures
        else "no figure yet"
    )
    print(f"report: {written.html} ({written.bytes / 1024:,.0f} KB, {figures}, {written.seconds:.1f} s)")
