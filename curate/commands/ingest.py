"""`curate ingest SOURCE`: parse a repository (or a benchmark) into the workspace."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from curate.config import load_config
from curate.ingest_stage import run_ingest
from curate.workspace import DEFAULT_WORKSPACE, Workspace, write_text_atomic
from parsers.config import IngestConfig

WorkspaceOption = Annotated[
    Path, typer.Option("--workspace", "-w", help="Workspace directory (tables, reports, journal).")
]


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
    jobs: Annotated[int | None, typer.Option(help="Parser processes (default: one per core).")] = None,
    max_file_mb: Annotated[
        float | None, typer.Option(help="Skip files larger than this (default 2 MB).")
    ] = None,
    config: Annotated[
        Path | None, typer.Option(help="TOML configuration file (default: ./curate.toml).")
    ] = None,
) -> None:
    """Parse AscendC kernels with libclang into kernel units (or benchmark items)."""
    cfg = load_config(
        IngestConfig, "ingest", cli={"jobs": jobs, "max_file_mb": max_file_mb}, config_file=config
    )
    ws = Workspace(workspace)
    console = Console(stderr=True)
    with (
        ws.locked(),
        Progress(
            TextColumn("[bold]ingest[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
            disable=not console.is_terminal,
        ) as bar,
    ):
        task = bar.add_task("parse", total=None)
        summary = run_ingest(
            source,
            ws,
            name,
            benchmark,
            cfg,
            code_column,
            id_column,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
        )
        ws.record_run(
            "ingest",
            source=summary.source,
            benchmark=benchmark,
            kind=summary.kind,
            files_seen=summary.files_seen,
            rows=summary.rows,
            partial=summary.partial,
            skipped=len(summary.skipped),
            config={"jobs": cfg.jobs, "max_file_mb": cfg.max_file_mb, "std": cfg.std},
        )
        report = ws.reports / f"ingest-{summary.source}.json"
        write_text_atomic(report, json.dumps(summary.report(), indent=2) + "\n")
    print(summary.line() + (f" (list: {report})" if summary.skipped else ""))
