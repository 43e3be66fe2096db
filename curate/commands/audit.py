"""`curate audit TRAIN TEST`: a standalone leakage audit between any two sources, for CI gates.

Exit status: 0 clean, 1 a leak above the thresholds was found, 2 bad input.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from curate.commands.dedup import stage_config
from curate.errors import UserError
from curate.sources import load_benchmark, load_corpus
from curate.workspace import write_text_atomic
from dedup.decide import run_audit
from dedup.report import build_json, build_markdown, dump_json
from schemas import BenchmarkItem, KernelUnit

SOURCE_HELP = (
    "A curate workspace, a directory of code files (.cpp .h .hpp .asc .cc), a .parquet or .jsonl file, "
    "a local dataset directory or a Hugging Face dataset id."
)


def _load(
    kind: str, source: str, code_column: str, id_column: str | None
) -> list[KernelUnit] | list[BenchmarkItem]:
    loader = load_corpus if kind == "TRAIN" else load_benchmark
    try:
        loaded = loader(source, code_column=code_column, id_column=id_column)
    except ValueError as exc:
        raise UserError(f"{kind}: {exc}") from None
    if not loaded:
        raise UserError(f"{kind}: {source} holds no documents; give a source with code")
    return loaded


def audit(
    train: Annotated[str, typer.Argument(help="Training side. " + SOURCE_HELP)],
    test: Annotated[str, typer.Argument(help="Test side (the benchmark). " + SOURCE_HELP)],
    threshold: Annotated[float | None, typer.Option(help="Jaccard threshold (default 0.7).")] = None,
    containment: Annotated[float | None, typer.Option(help="Containment threshold (default 0.8).")] = None,
    ngram: Annotated[int | None, typer.Option(help="Tokens per shingle (default 5).")] = None,
    abstract_identifiers: Annotated[
        bool | None,
        typer.Option(
            "--abstract-identifiers/--keep-identifiers", help="Catch copies with renamed identifiers."
        ),
    ] = None,
    train_code_column: Annotated[str, typer.Option(help="Code column when TRAIN is a table.")] = "code",
    test_code_column: Annotated[str, typer.Option(help="Code column when TEST is a table.")] = "code",
    train_id_column: Annotated[str | None, typer.Option(help="Id column when TRAIN is a table.")] = None,
    test_id_column: Annotated[str | None, typer.Option(help="Id column when TEST is a table.")] = None,
    report_dir: Annotated[Path, typer.Option("--report-dir", help="Where leakage.json/.md go.")] = Path(
        "audit-report"
    ),
    config: Annotated[
        Path | None, typer.Option("--config", help="curate.toml to read the dedup section from.")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the counts and leaks as JSON.")] = False,
) -> None:
    """Find test items whose code appears in the training side; exit 1 when any leak is found."""
    cli = {
        "threshold": threshold,
        "containment": containment,
        "ngram": ngram,
        "abstract_identifiers": abstract_identifiers,
    }
    cfg = stage_config(cli, config)
    units = _load("TRAIN", train, train_code_column, train_id_column)
    items = _load("TEST", test, test_code_column, test_id_column)
    findings, counts = run_audit(units, items, cfg)  # type: ignore[arg-type]
    # A side without code cannot be audited: "clean" would be a silent empty report.
    if counts["empty_train_documents"] == counts["train_documents"]:
        raise UserError(
            f"TRAIN: no document of {train} has code once comments are removed; give a source with code"
        )
    if counts["test_answers"] == 0:
        raise UserError(
            f"TEST: no item of {test} has kernel code (a PyTorch-only benchmark?); "
            "an audit compares code: use `curate dedup` for op-name matching"
        )
    report = build_json(findings, units, items, cfg, counts)  # type: ignore[arg-type]
    report["train"], report["test"] = train, test
    if report_dir.exists() and not report_dir.is_dir():
        raise UserError(f"--report-dir {report_dir} is a file; give a directory")
    write_text_atomic(report_dir / "leakage.json", dump_json(report))
    write_text_atomic(
        report_dir / "leakage.md", build_markdown(report, title=f"Leakage audit: {train} vs {test}")
    )
    if json_out:
        print(
            json.dumps({"counts": counts, "leaks": report["leaks"], "report_dir": str(report_dir)}, indent=2)
        )
    else:
        verdict = "LEAK" if findings.leaks else "clean"
        print(
            f"audit {verdict}: {counts['leaks']} of {counts['train_documents']} training documents contain "
            f"{counts['leaked_items']} of {counts['test_items']} test items "
            f"({counts['leak_pairs']} pairs); {counts['name_matches']} op-name matches; "
            f"report: {report_dir / 'leakage.md'}"
        )
    if findings.leaks:
        # SystemExit, not typer.Exit: the CLI runs click with standalone_mode=False, where an
        # Exit's code would be returned and lost instead of becoming the process status.
        raise SystemExit(1)


def register(app: typer.Typer) -> None:
    app.command("audit")(audit)
