"""The dedup stage: every unit marked keep / duplicate / leak in decisions.parquet, with the
leakage report in reports/ and the run recorded.

`dedup.decide.run_dedup` makes every decision; its heavy steps run on the band-shuffle engine
(`dedup.bands.BandShuffleEngine`) over an executor (`curate.executor`): `local` spreads them over
this machine's cores, `ray` over Ray Data tasks; both give `dedup.decide.LOCAL`'s clusters and
decisions.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from curate.errors import UserError
from curate.executor import check_engine, executor_for
from curate.report.leakage import build_json, write_json_atomic
from curate.report.leakage_md import build_markdown
from curate.stage import Stage
from curate.tasklevel import dedup_task_leaks, judge_settings
from curate.workspace import Workspace
from dedup.bands import BandShuffleEngine
from dedup.config import SHARD_ROWS, DedupConfig
from dedup.decide import run_dedup
from schemas import BenchmarkItem, Decision, KernelUnit, read_records
from schemas.atomic import write_text_atomic
from schemas.runs import DedupRun


@dataclass(slots=True)
class DedupSummary:
    counts: dict[str, int]
    notes: list[str]
    seconds: float
    benchmarks: list[str]  # the benchmarks the units were compared with ([]: no leakage check)


def _read_benchmark(ws: Workspace) -> list[BenchmarkItem] | None:
    if not ws.benchmark.exists():
        return None
    items = read_records(ws.benchmark, BenchmarkItem)
    if not items:
        raise UserError(
            f"{ws.benchmark} has no items: re-run `curate ingest BENCH --benchmark` with a benchmark that has tasks"
        )
    return items


def _check(config: DedupConfig, engine: str = "local", shard_rows: int = SHARD_ROWS) -> None:
    check_engine(engine)
    if shard_rows < 1:
        raise UserError(f"--shard-rows must be at least 1, got {shard_rows}")


def _dedup(
    ws: Workspace, config: DedupConfig, engine: str = "local", shard_rows: int = SHARD_ROWS
) -> DedupSummary:
    started = time.perf_counter()
    units = read_records(ws.units, KernelUnit)
    if not units:
        raise UserError(f"{ws.units} has no units: ingest a source with kernels first")
    items = _read_benchmark(ws)
    result = run_dedup(units, items, config, BandShuffleEngine(executor_for(engine), shard_rows))
    report = build_json(result.findings, units, items or [], config, result.counts)
    judge = judge_settings(
        config.judge_url, config.judge_model, ws.reports / "judge.sqlite", config.judge_concurrency
    )
    tasks_section = dedup_task_leaks(units, items, result.decisions, config.task_leaks, report, judge)
    # `--task-leaks drop` marks more units leak: the counts say what decisions.parquet holds.
    result.counts["leaks"] = sum(d.decision == "leak" for d in result.decisions)
    result.counts["kept"] = sum(d.decision == "keep" for d in result.decisions)
    ws.write_table("decisions", Decision, result.decisions)
    json_path, markdown_path = ws.leakage_reports()
    write_json_atomic(json_path, report)
    write_text_atomic(markdown_path, build_markdown(report) + tasks_section)
    benchmarks = sorted({item.benchmark for item in items or []})
    return DedupSummary(result.counts, result.notes, round(time.perf_counter() - started, 3), benchmarks)


DEDUP: Stage[DedupSummary] = Stage(
    "dedup",
    _dedup,
    config=DedupConfig,
    reads=("units",),
    writes=("decisions",),
    check=_check,
    record=lambda config, summary: DedupRun(
        config=dataclasses.asdict(config),
        counts=summary.counts,
        seconds=summary.seconds,
        benchmarks=summary.benchmarks,
    ),
)


def run_dedup_stage(
    ws: Workspace, config: DedupConfig, engine: str = "local", shard_rows: int = SHARD_ROWS
) -> DedupSummary:
    return DEDUP.execute(ws, config, engine, shard_rows)
