"""`curate dedup`: remove near-duplicate units and units that leak a benchmark answer."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from curate.commands.options import (
    AbstractOption,
    ConfigOption,
    ContainmentOption,
    FullEvidenceOption,
    JsonOption,
    NgramOption,
    ThresholdOption,
    WorkspaceOption,
)
from curate.config import load_config
from curate.sources import SHARD_ROWS
from curate.stages.dedup import run_dedup_stage
from curate.workspace import DEFAULT_WORKSPACE, Workspace
from dedup.config import DedupConfig
from dedup.report import summary_line


def dedup(
    workspace: WorkspaceOption = DEFAULT_WORKSPACE,
    threshold: ThresholdOption = None,
    containment: ContainmentOption = None,
    num_perm: Annotated[int | None, typer.Option(help="MinHash permutations (default 128).")] = None,
    ngram: NgramOption = None,
    abstract_identifiers: AbstractOption = None,
    full_evidence: FullEvidenceOption = None,
    drop_name_matches: Annotated[
        bool | None,
        typer.Option(
            "--drop-name-matches/--keep-name-matches", help="Also remove units named like a benchmark task."
        ),
    ] = None,
    task_leaks: Annotated[
        str | None,
        typer.Option(
            "--task-leaks",
            help="Units that solve a benchmark task with other code (task-level matches): flag (report "
            "them, default) or drop (mark them leak).",
        ),
    ] = None,
    engine: Annotated[
        str,
        typer.Option(
            help="local: this process; ray: shingling, the LSH band shuffle and exact confirmation on "
            "Ray Data (a local runtime, or the cluster at RAY_ADDRESS), with the local engine's results."
        ),
    ] = "local",
    shard_rows: Annotated[int, typer.Option(help="Units per Ray task (--engine ray).")] = SHARD_ROWS,
    config: ConfigOption = None,
    json_out: JsonOption = False,
) -> None:
    """Mark every unit keep / duplicate / leak in decisions.parquet and write reports/leakage.{json,md}."""
    cli = {
        "threshold": threshold,
        "containment": containment,
        "num_perm": num_perm,
        "ngram": ngram,
        "abstract_identifiers": abstract_identifiers,
        "full_evidence": full_evidence,
        "drop_name_matches": drop_name_matches,
        "task_leaks": task_leaks,
    }
    cfg = load_config(DedupConfig, "dedup", cli=cli, config_file=config)
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
