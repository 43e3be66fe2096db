"""`curate ingest SOURCE`: parse a repository (or a benchmark) into the workspace."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from curate.commands.options import CodeFromOption, ConfigOption, WorkspaceOption, check_code_from
from curate.config import load_config
from curate.stages.ingest import IngestRequest, run_ingest
from curate.workspace import DEFAULT_WORKSPACE, Workspace
from parsers.config import IngestConfig


def register(app: typer.Typer) -> None:
    app.command("ingest")(ingest)


def ingest(
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
    jobs: Annotated[int | None, typer.Option(help="Parser processes (default: one per core).")] = None,
    max_file_mb: Annotated[
        float | None, typer.Option(help="Skip files larger than this (default 2 MB).")
    ] = None,
    config: ConfigOption = None,
) -> None:
    """Parse AscendC kernels with libclang into kernel units (or benchmark items)."""
    cfg = load_config(
        IngestConfig, "ingest", cli={"jobs": jobs, "max_file_mb": max_file_mb}, config_file=config
    )
    request = IngestRequest(source, name, benchmark, code_column, id_column, check_code_from(code_from))
    console = Console(stderr=True)
    with Progress(
        TextColumn("[bold]ingest[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        task = bar.add_task("parse", total=None)
        summary, report = run_ingest(
            Workspace(workspace),
            request,
            cfg,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
    print(summary.line() + (f" (list: {report})" if summary.skipped else ""))
