"""The dedup stage: every unit marked keep / duplicate / leak in decisions.parquet, with the
leakage report in reports/ and the run recorded."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from curate.errors import UserError
from curate.workspace import Workspace
from dedup.config import DedupConfig
from dedup.decide import run_dedup
from dedup.report import build_json, build_markdown, dump_json
from schemas import BenchmarkItem, Decision, KernelUnit, read_records, write_records
from schemas.runs import DedupRun
from schemas.tables import write_text_atomic


@dataclass(slots=True)
class DedupSummary:
    counts: dict[str, int]
    notes: list[str]
    seconds: float


def _read_benchmark(ws: Workspace) -> list[BenchmarkItem] | None:
    if not ws.benchmark.exists():
        return None
    items = read_records(ws.benchmark, BenchmarkItem)
    if not items:
        raise UserError(
            f"{ws.benchmark} has no items: re-run `curate ingest BENCH --benchmark` with a benchmark that has tasks"
        )
    return items


def run_dedup_stage(ws: Workspace, config: DedupConfig) -> DedupSummary:
    ws.require_inputs("dedup")
    with ws.locked():
        started = time.perf_counter()
        units = read_records(ws.units, KernelUnit)
        if not units:
            raise UserError(f"{ws.units} has no units: ingest a source with kernels first")
        items = _read_benchmark(ws)
        result = run_dedup(units, items, config)
        report = build_json(result.findings, units, items or [], config, result.counts)
        write_records(ws.decisions, Decision, result.decisions)
        json_path, markdown_path = ws.leakage_reports()
        write_text_atomic(json_path, dump_json(report))
        write_text_atomic(markdown_path, build_markdown(report))
        seconds = round(time.perf_counter() - started, 3)
        ws.record_run(DedupRun(config=dataclasses.asdict(config), counts=result.counts, seconds=seconds))
    return DedupSummary(result.counts, result.notes, seconds)
