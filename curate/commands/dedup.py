"""`curate dedup`: remove near-duplicate units and units that leak a benchmark answer."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from curate.commands.config_options import config_command
from curate.commands.options import EngineOption, JsonOption, WorkspaceOption
from curate.workspace import DEFAULT_WORKSPACE, Workspace
from dedup.config import SHARD_ROWS, DedupConfig


@config_command(DedupConfig, "dedup")
def dedup(
    cfg: DedupConfig,
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    engine: EngineOption = "local",
    shard_rows: Annotated[int, typer.Option(help="Units per Ray task (--engine ray).")] = SHARD_ROWS,
    json_out: JsonOption = False,
) -> None:
    """Mark every unit keep / duplicate / leak in decisions.parquet and write reports/leakage.{json,md}."""
    from curate.report.leakage_md import summary_line
    from curate.stages.dedup import run_dedup_stage  # the stage is imported when the command runs

    ws = Workspace(workspace)
    summary = run_dedup_stage(ws, cfg, engine=engine, shard_rows=shard_rows)
    if json_out:
        print(
            json.dumps(
                {"counts": summary.counts, "notes": summary.notes, "seconds": summary.seconds}, indent=2
            )
        )
    else:
        markdown = ws.leakage_reports()[1]
        print(f"dedup: {summary_line(summary.counts, summary.notes)}; report: {markdown}")


def register(app: typer.Typer) -> None:
    app.command("dedup")(dedup)
