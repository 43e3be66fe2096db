"""The audit stage: a standalone leakage audit between any two sources, for CI gates. Reads both
sides through `curate.sources`, writes leakage.json/.md into a report directory, touches no
workspace."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curate.errors import UserError
from curate.sources import load_benchmark, load_corpus
from curate.workspace import leakage_reports
from dedup.config import DedupConfig
from dedup.decide import run_audit
from dedup.report import build_json, build_markdown, dump_json
from schemas import BenchmarkItem, KernelUnit
from schemas.tables import write_text_atomic


@dataclass(frozen=True, slots=True)
class Side:
    """One side of the audit: the SOURCE argument and, for tables, its columns."""

    source: str
    code_column: str = "code"
    id_column: str | None = None


@dataclass(slots=True)
class AuditSummary:
    leaked: bool
    counts: dict[str, int]
    leaks: list[dict[str, Any]]
    report_dir: Path


def _load(kind: str, side: Side) -> list[KernelUnit] | list[BenchmarkItem]:
    loader = load_corpus if kind == "TRAIN" else load_benchmark
    try:
        loaded = loader(side.source, code_column=side.code_column, id_column=side.id_column)
    except ValueError as exc:
        raise UserError(f"{kind}: {exc}") from None
    if not loaded:
        raise UserError(f"{kind}: {side.source} holds no documents; give a source with code")
    return loaded


def run_audit_stage(train: Side, test: Side, config: DedupConfig, report_dir: Path) -> AuditSummary:
    if report_dir.exists() and not report_dir.is_dir():
        raise UserError(f"--report-dir {report_dir} is a file; give a directory")
    units = _load("TRAIN", train)
    items = _load("TEST", test)
    findings, counts = run_audit(units, items, config)  # type: ignore[arg-type]
    # A side without code cannot be audited: "clean" would be a silent empty report.
    if counts["empty_train_documents"] == counts["train_documents"]:
        raise UserError(
            f"TRAIN: no document of {train.source} has code once comments are removed; give a source with code"
        )
    if counts["test_answers"] == 0:
        raise UserError(
            f"TEST: no item of {test.source} has kernel code (a PyTorch-only benchmark?); "
            "an audit compares code: use `curate dedup` for op-name matching"
        )
    report = build_json(findings, units, items, config, counts)  # type: ignore[arg-type]
    report["train"], report["test"] = train.source, test.source
    json_path, markdown_path = leakage_reports(report_dir)
    write_text_atomic(json_path, dump_json(report))
    title = f"Leakage audit: {train.source} vs {test.source}"
    write_text_atomic(markdown_path, build_markdown(report, title=title))
    return AuditSummary(bool(findings.leaks), counts, report["leaks"], report_dir)
