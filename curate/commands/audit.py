"""`curate audit TRAIN TEST`: a standalone leakage audit between any two sources, for CI gates.

Exit status: 0 clean, 1 a leak above the thresholds was found, 2 bad input.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from curate.commands.config_options import config_command
from curate.commands.options import CodeFromOption, EngineOption, JsonOption, check_code_from
from dedup.config import SHARD_ROWS, DedupConfig

JudgeUrlOption = Annotated[
    str | None,
    typer.Option(
        help="OpenAI-compatible endpoint asked 'does this kernel implement this reference?' about each "
        "task-level match and candidate (cached per pair; offline without it)."
    ),
]
JudgeModelOption = Annotated[str, typer.Option(help="Model name sent to --judge-url.")]
JudgeConcurrencyOption = Annotated[
    int,
    typer.Option(
        min=1,
        max=64,
        help="Documents judged at once by --judge-url (1 for a server that answers one request at a time).",
    ),
]

# The matching options audit shares with dedup (the rest of [dedup] is dedup's alone).
AUDIT_OPTIONS = ("threshold", "containment", "ngram", "abstract_identifiers", "full_evidence")
SOURCE_HELP = (
    "A curate workspace, a directory of code files (.cpp .h .hpp .asc .cc), a .parquet or .jsonl file, "
    "a local dataset directory or a Hugging Face dataset id."
)


@config_command(DedupConfig, "dedup", only=AUDIT_OPTIONS)
def audit(
    cfg: DedupConfig,
    train: Annotated[str, typer.Argument(help="Training side. " + SOURCE_HELP)],
    test: Annotated[str, typer.Argument(help="Test side (the benchmark). " + SOURCE_HELP)],
    train_code_column: Annotated[str, typer.Option(help="Code column when TRAIN is a table.")] = "code",
    test_code_column: Annotated[str, typer.Option(help="Code column when TEST is a table.")] = "code",
    train_id_column: Annotated[str | None, typer.Option(help="Id column when TRAIN is a table.")] = None,
    test_id_column: Annotated[str | None, typer.Option(help="Id column when TEST is a table.")] = None,
    code_from: CodeFromOption = None,
    test_code_from: Annotated[
        str | None,
        typer.Option(
            "--test-code-from",
            help="--code-from for the TEST side: for a table, as --code-from; for a directory, text "
            "compares every code file whole instead of one item per kernel.",
        ),
    ] = None,
    engine: EngineOption = "local",
    shard_rows: Annotated[
        int, typer.Option(help="Training rows (or files) per shard: bounds the memory.")
    ] = SHARD_ROWS,
    report_dir: Annotated[
        Path | None,
        typer.Option(
            "--report-dir",
            help="Where leakage.json/.md go (default: TRAIN/reports/audit/ when TRAIN is a workspace; "
            "needed otherwise).",
        ),
    ] = None,
    test_text_column: Annotated[
        str | None,
        typer.Option(help="TEST is a table of task descriptions (or PyTorch references) in this column."),
    ] = None,
    judge_url: JudgeUrlOption = None,
    judge_model: JudgeModelOption = "judge",
    judge_concurrency: JudgeConcurrencyOption = 4,
    json_out: JsonOption = False,
) -> None:
    """Find test items whose code appears in the training side, and training documents that solve a
    test task (task-level matches); exit 1 when either is found."""
    from curate.stages.audit import Side, audit_report_dir, run_audit_stage  # imported when the command runs
    from curate.tasklevel import judge_settings

    train_side = Side(train, train_code_column, train_id_column, check_code_from(code_from))
    test_side = Side(
        test, test_code_column, test_id_column, check_code_from(test_code_from), test_text_column
    )
    report_dir = audit_report_dir(train, report_dir)  # before anything is read
    summary = run_audit_stage(
        train_side,
        test_side,
        cfg,
        report_dir,
        engine=engine,
        shard_rows=shard_rows,
        judge=judge_settings(judge_url, judge_model, report_dir / "judge.sqlite", judge_concurrency),
    )
    counts = summary.counts
    if json_out:
        print(json.dumps({"counts": counts, "leaks": summary.leaks, "report_dir": str(report_dir)}, indent=2))
    else:
        verdict = "LEAK" if summary.leaked else "clean"
        left_out = counts["test_files_left_out"]
        print(
            f"audit {verdict}: {counts['leaks']} of {counts['train_documents']} training documents contain "
            f"{counts['leaked_items']} of {counts['test_items']} test items "
            f"({counts['leak_pairs']} pairs); {counts['name_matches']} op-name matches; "
            f"{counts['task_matches']} solve a test task ({counts['task_matches_fused']} fused, "
            f"{counts['task_matches_op']} single-op, {counts['task_matches_tied']} one of tied tasks); "
            + (
                f"{left_out} test folder file{'s' * (left_out != 1)} not compared (no kernel); "
                if left_out
                else ""
            )
            + f"report: {report_dir / 'leakage.md'}"
        )
    if summary.leaked:
        raise SystemExit(1)  # a leak is the audit's answer, not an error: exit 1, no message


def register(app: typer.Typer) -> None:
    app.command("audit")(audit)
