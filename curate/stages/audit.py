"""The audit stage: a standalone leakage audit between any two sources, for CI gates. Reads both
sides through `curate.sources`, writes leakage.json/.md into a report directory (`--report-dir`, or
the training workspace's reports/audit/), and changes no table.

The test side (a benchmark: small) is read whole and indexed once. The training side streams in
shards of bounded size (`curate.sources.plan_corpus` / `read_shard`); each shard is shingled and
probed against the index (`dedup.decide.audit_shard`), and only the units a finding names are
kept. The shards run on an executor (`curate.executor`): one after the other in this process
(`engine="local"`) or as Ray Data tasks (`engine="ray"`: the same function on the same shards,
the index shared through the object store); both merge the shards in plan order, so their
reports are identical.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curate.errors import UserError
from curate.executor import Executor, check_engine, executor_for
from curate.report.leakage import build_json, write_json_atomic
from curate.report.leakage_md import build_markdown
from curate.report.task_leaks import task_markdown
from curate.report.task_store import TaskMatchStore
from curate.sources import (
    MISSING,
    WORKSPACE,
    BenchmarkSide,
    Shard,
    iter_corpus,
    load_benchmark,
    plan_corpus,
    read_shard,
    source_kind,
    split_block_path,
)
from curate.tasklevel import JudgeSettings, MatchJudge, task_index_for
from curate.workspace import leakage_reports
from dedup.config import SHARD_ROWS, DedupConfig
from dedup.decide import BenchIndex, ShardAudit, audit_shard, bench_index, merge_shards
from schemas.atomic import write_text_atomic


@dataclass(frozen=True, slots=True)
class Side:
    """One side of the audit: the SOURCE argument and, for tables, its columns."""

    source: str
    code_column: str = "code"
    id_column: str | None = None
    code_from: str | None = None  # extract code blocks from a text column (curate.code_blocks)
    text_column: str | None = None  # test side: a table of task descriptions (no code needed)


@dataclass(slots=True)
class AuditSummary:
    leaked: bool
    counts: dict[str, int]
    leaks: list[dict[str, Any]]
    report_dir: Path


def _side_error(side: str, exc: Exception) -> UserError:
    """A source's error as `curate audit` shows it: the side named, and the column options spelled
    as audit spells them (--train-code-column, not the --code-column of ingest)."""
    flag = side.lower()
    message = (
        str(exc)
        .replace("--code-column", f"--{flag}-code-column")
        .replace("--id-column", f"--{flag}-id-column")
    )
    return UserError(f"{side}: {message}")


def _load_test(side: Side) -> BenchmarkSide:
    try:
        loaded = load_benchmark(
            side.source,
            code_column=side.code_column,
            id_column=side.id_column,
            code_from=side.code_from,
            text_column=side.text_column,
        )
    except ValueError as exc:
        raise _side_error("TEST", exc) from None
    if not loaded.items:
        raise UserError(f"TEST: {side.source} holds no documents; give a source with code")
    return loaded


def _train_shards(
    train: Side, index: BenchIndex, config: DedupConfig, shard_rows: int, executor: Executor
) -> Iterator[ShardAudit]:
    """Shards -> signatures -> probe against the shared index -> exact confirmation, one task per
    shard of the plan; only each shard's findings and the units they name come back. A Hugging
    Face id has no plan: the local executor streams it."""
    plan = plan_corpus(train.source, shard_rows)
    if plan is None:
        if executor.distributed:
            raise UserError(
                f"TRAIN: --engine ray reads files, directories and workspaces; {train.source} is a Hub id: "
                "download it (or use --engine local, which streams it)"
            )
        batches = iter_corpus(
            train.source,
            code_column=train.code_column,
            id_column=train.id_column,
            code_from=train.code_from,
            shard_rows=shard_rows,
        )
        yield from (audit_shard(units, index, config) for units in batches)
        return
    shared = executor.share(index)

    def work(shard: Shard) -> list[ShardAudit]:
        found = shared.get()
        batches = read_shard(shard, train.code_column, train.id_column, train.code_from, shard_rows)
        return [audit_shard(units, found, config) for units in batches]

    for audits in executor.map(work, plan):
        yield from audits


def _blocks(report: dict[str, Any], train: Side, test: Side) -> None:
    """Name the row and block of each side that code came from when it was extracted from text."""
    for leak in report["leaks"]:
        if train.code_from is not None and (where := split_block_path(leak["unit_path"])):
            leak["row_id"], leak["block"] = where
        if test.code_from is not None and (where := split_block_path(leak["answer_path"])):
            leak["answer_row_id"], leak["answer_block"] = where


def _left_out_note(side: BenchmarkSide) -> list[str]:
    """Say which files of a kernel folder were not compared, and how to compare them."""
    n = len(side.left_out)
    if not n:
        return []
    shown = ", ".join(f"`{path}`" for path in side.left_out[:5]) + (", ..." if n > 5 else "")
    return [
        f"Not compared: {n} code file{'s' * (n != 1)} of the test folder with no kernel of "
        f"{'its' if n == 1 else 'their'} own, included by no kernel ({shown}; all in leakage.json, "
        "`test_left_out`). Such files are not benchmark answers; `--test-code-from text` compares "
        "every file of the folder whole."
    ]


def audit_report_dir(train_source: str, given: Path | None) -> Path:
    """Where the report goes: `--report-dir`, else the training workspace's reports/audit/ (beside
    its dedup report, not over it). Never a folder of the current directory nobody asked for: a
    TRAIN that is not a workspace needs `--report-dir`, checked before anything is read."""
    if given is not None:
        return given
    kind = source_kind(train_source)
    if kind == WORKSPACE:
        return Path(train_source) / "reports" / "audit"
    if kind == MISSING:  # a mistyped path: say that, not what a real one would need
        raise UserError(f"TRAIN: {train_source}: no such file or directory")
    raise UserError(
        f"--report-dir DIR: where to write leakage.json/.md (TRAIN {train_source} is not a workspace, "
        "whose reports/audit/ would be the default)"
    )


def run_audit_stage(
    train: Side,
    test: Side,
    config: DedupConfig,
    report_dir: Path,
    engine: str = "local",
    shard_rows: int = SHARD_ROWS,
    judge: JudgeSettings | None = None,
) -> AuditSummary:
    if report_dir.exists() and not report_dir.is_dir():
        raise UserError(f"--report-dir {report_dir} is a file; give a directory")
    check_engine(engine)
    if shard_rows < 1:
        raise UserError(f"--shard-rows must be at least 1, got {shard_rows}")
    test_side = _load_test(test)
    items = test_side.items
    index = bench_index(items, config, task_index_for(items, judge is not None))
    # Task matches go to disk shard by shard (judged there when a judge is given), not to memory.
    store = None
    if index.tasks is not None:
        store = TaskMatchStore(items, index.tasks, MatchJudge(judge) if judge is not None else None)
    try:
        return _audit_and_report(train, test, test_side, index, config, report_dir, engine, shard_rows, store)
    finally:
        if store is not None:
            store.close()


def _audit_and_report(
    train: Side,
    test: Side,
    test_side: BenchmarkSide,
    index: BenchIndex,
    config: DedupConfig,
    report_dir: Path,
    engine: str,
    shard_rows: int,
    store: TaskMatchStore | None,
) -> AuditSummary:
    items = test_side.items
    try:
        shards = _train_shards(train, index, config, shard_rows, executor_for(engine))
        units, findings, counts = merge_shards(shards, items, index, store.add if store else None)
    except ValueError as exc:
        raise _side_error("TRAIN", exc) from None
    if counts["train_documents"] == 0:
        raise UserError(f"TRAIN: {train.source} holds no documents; give a source with code")
    # A side without code cannot be audited: "clean" would be a silent empty report.
    if counts["empty_train_documents"] == counts["train_documents"]:
        raise UserError(
            f"TRAIN: no document of {train.source} has code once comments are removed; give a source with code"
        )
    if counts["test_answers"] == 0 and index.tasks is None:
        raise UserError(
            f"TEST: no item of {test.source} has kernel code (a PyTorch-only benchmark?); "
            "and none states its task (a PyTorch reference or a description): nothing to compare"
        )
    counts["test_files_left_out"] = len(test_side.left_out)
    if store is not None:
        counts.update(store.counts())
    report = build_json(findings, units, items, config, counts)
    report["task_matches"] = store.records() if store is not None else []
    report["train"], report["test"] = train.source, test.source
    report["test_left_out"] = test_side.left_out
    _blocks(report, train, test)
    json_path, markdown_path = leakage_reports(report_dir)
    write_json_atomic(json_path, report)
    title = f"Leakage audit: {train.source} vs {test.source}"
    markdown = build_markdown(report, title=title, notes=_left_out_note(test_side))
    if store is not None:
        markdown += "\n".join(task_markdown(store.detailed(), counts)) + "\n"
    write_text_atomic(markdown_path, markdown)
    leaked = bool(findings.leaks) or counts["task_matches"] > 0
    return AuditSummary(leaked, counts, report["leaks"], report_dir)
