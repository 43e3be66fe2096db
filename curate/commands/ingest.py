"""`curate ingest SOURCE`: parse a repository (or a benchmark) into the workspace."""

from __future__ import annotations

from typing import Annotated

import typer

from curate.commands.config_options import config_command
from curate.commands.options import CodeFromOption, WorkspaceOption, check_code_from
from curate.workspace import DEFAULT_WORKSPACE, Workspace
from parsers.config import IngestConfig


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest)


@config_command(IngestConfig, "ingest")
def ingest(
    cfg: IngestConfig,
    source: Annotated[
        str, typer.Argument(help="Repository directory or git URL (a table or HF id with --benchmark).")
    ],
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    name: Annotated[
        str | None, typer.Option(help="Source name recorded on every row (default: directory name).")
    ] = None,
    benchmark: Annotated[
        bool, typer.Option("--benchmark", help="Store as a benchmark (test set) instead of corpus.")
    ] = False,
    code_column: Annotated[
        str | None, typer.Option(help="Table benchmarks: the column holding kernel code.")
    ] = None,
    id_column: Annotated[
        str | None, typer.Option(help="Table benchmarks: the column holding the task id.")
    ] = None,
    code_from: CodeFromOption = None,
) -> None:
    """Parse AscendC kernels with libclang into kernel units (or benchmark items)."""
    from rich.console import Console  # imported when the command runs: `ingest --help` need not
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from curate.stages.ingest import IngestRequest, run_ingest

    request = IngestRequest(source, name, benchmark, code_column, id_column, check_code_from(code_from))
    console = Console(stderr=True)
    # On a terminal only: one transient line on stderr (reading the tree, then files parsed of
    # those to parse, units found so far); nothing when stderr is a pipe or a file.
    with Progress(
        TextColumn("[bold]ingest[/] {task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("files, {task.fields[units]} units"),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task("reading the tree", total=None, units=0)
        summary, report = run_ingest(
            Workspace(workspace),
            request,
            cfg,
            progress=lambda done, total, units: bar.update(
                task, description="parsing", completed=done, total=total, units=units
            ),
        )
    print(summary.line() + (f" (list: {report})" if summary.skipped else ""))
