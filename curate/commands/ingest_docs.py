"""`curate ingest-docs SOURCE`: a documentation tree into the workspace (docs.parquet)."""

from __future__ import annotations

from typing import Annotated

import typer

from curate.commands.options import WorkspaceOption
from curate.workspace import DEFAULT_WORKSPACE, Workspace


def register(app: typer.Typer) -> None:
    app.command("ingest-docs")(ingest_docs)


def ingest_docs(
    source: Annotated[str, typer.Argument(help="Documentation directory (markdown pages) or git URL.")],
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    name: Annotated[
        str | None, typer.Option(help="Source name recorded on every row (default: directory name).")
    ] = None,
) -> None:
    """Read API reference pages, guides and best practices into section chunks (the knowledge component)."""
    from curate.stages.ingest_docs import run_ingest_docs  # imported when the command runs

    print(run_ingest_docs(Workspace(workspace), source, name).line())
