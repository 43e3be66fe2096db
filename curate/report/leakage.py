"""leakage.json: every leak with both sides (file and kernel) and what they share, the op-name
matches, and the counts per benchmark and level. The Markdown for people is `leakage_md`.

The evidence per pair is bounded (`evidence.Evidence`: the most distinctive shared line ranges,
how many there are, and a few of their rarest lines); `full_evidence` quotes every shared line."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from curate.report.evidence import NO_REFERENCE, Evidence, LineRarity
from dedup.config import DedupConfig
from dedup.decide import Leak, LeakFindings
from schemas import BenchmarkItem, KernelUnit
from schemas.atomic import atomic_path


def _answer_path(item: BenchmarkItem, answer: int) -> str:
    return item.answer_paths[answer] if answer < len(item.answer_paths) else item.path


def leak_record(
    leak: Leak, units: list[KernelUnit], items: list[BenchmarkItem], evidence: Evidence | None = None
) -> dict[str, Any]:
    unit, item = units[leak.unit], items[leak.item]
    evidence = evidence or Evidence()
    shared = evidence.between(item.answers[leak.answer], unit.code)
    return {
        "unit_id": unit.unit_id,
        "unit_source": unit.source,
        "unit_path": unit.path,
        "kernel_name": unit.kernel_name,
        "unit_op_name": unit.op_name,
        "unit_lines": unit.lines or unit.code.count("\n") + 1,
        "item_id": item.item_id,
        "benchmark": item.benchmark,
        "task_name": item.task_name,
        "level": item.level,
        "category": item.category,
        "answer_path": _answer_path(item, leak.answer),
        "method": leak.method,
        "score": round(leak.score, 6),
        "jaccard": round(leak.jaccard, 6),
        "containment": round(leak.containment, 6),
        "shared_shingles": leak.overlap,
        **shared,
    }


def name_records(
    findings: LeakFindings, units: list[KernelUnit], items: list[BenchmarkItem]
) -> list[dict[str, Any]]:
    leaked = {(lk.unit, lk.item) for lk in findings.leaks}
    return [
        {
            "unit_id": units[u].unit_id,
            "unit_path": units[u].path,
            "kernel_name": units[u].kernel_name,
            "op_name": units[u].op_name or units[u].kernel_name,
            "item_id": items[i].item_id,
            "benchmark": items[i].benchmark,
            "task_name": items[i].task_name,
            "level": items[i].level,
            "code_also_matches": (u, i) in leaked,
        }
        for u, i in findings.name_matches
    ]


def build_json(
    findings: LeakFindings,
    units: list[KernelUnit],
    items: list[BenchmarkItem],
    cfg: DedupConfig,
    counts: dict[str, int],
) -> dict[str, Any]:
    """The leakage report. Evidence per pair is bounded (ranges and a few quoted lines) unless
    `cfg.full_evidence`, so the report grows with the number of pairs, not with their sizes; lines
    are weighed against every benchmark answer and a sample of the units (`LineRarity.of`)."""
    rarity = (  # only when there is evidence to weigh: a clean corpus pays nothing for it
        LineRarity.of((a for item in items for a in item.answers), [u.code for u in units])
        if findings.leaks
        else None
    )
    evidence = Evidence(full=cfg.full_evidence, rarity=rarity or NO_REFERENCE)
    return {
        "parameters": dataclasses.asdict(cfg),
        "counts": counts,
        "per_benchmark_level": summary_rows(findings, items),
        "leaks": [leak_record(lk, units, items, evidence) for lk in findings.leaks],
        "name_matches": name_records(findings, units, items),
    }


def summary_rows(findings: LeakFindings, items: list[BenchmarkItem]) -> list[dict[str, Any]]:
    rows: dict[tuple[str, int], dict[str, Any]] = {}
    for item in items:
        row = rows.setdefault(
            (item.benchmark, item.level),
            {"benchmark": item.benchmark, "level": item.level, "items": 0, "items_with_code": 0},
        )
        row["items"] += 1
        row["items_with_code"] += any(code.strip() for code in item.answers)
    leaked: dict[tuple[str, int], set[str]] = {}
    units: dict[tuple[str, int], set[int]] = {}
    for lk in findings.leaks:
        key = (items[lk.item].benchmark, items[lk.item].level)
        leaked.setdefault(key, set()).add(items[lk.item].item_id)
        units.setdefault(key, set()).add(lk.unit)
    named: dict[tuple[str, int], set[str]] = {}
    code_pairs = {(lk.unit, lk.item) for lk in findings.leaks}
    for u, i in findings.name_matches:
        if (u, i) not in code_pairs:
            named.setdefault((items[i].benchmark, items[i].level), set()).add(items[i].item_id)
    for key, row in rows.items():
        row["leaked_items"] = len(leaked.get(key, ()))
        row["leaking_units"] = len(units.get(key, ()))
        row["name_only_items"] = len(named.get(key, ()))
    return [rows[k] for k in sorted(rows)]


class RawJson(str):
    """A record already serialised (compact JSON): written as it is, not encoded again."""


# Written one compact line per record: readable, greppable and a fraction of the size of
# indenting every nested list. A value may be any iterable of records (a stream read back
# from disk, `curate.report.task_store`), so a report's largest list is never held whole.
_ONE_LINE_PER_RECORD = ("leaks", "name_matches", "task_matches")


def json_chunks(report: dict[str, Any]) -> Iterator[str]:
    """leakage.json in pieces: indented at the top, one line per leak, name match and task match."""
    yield "{\n"
    for n, (key, value) in enumerate(report.items()):
        head = ("" if n == 0 else ",\n") + f"  {json.dumps(key)}: "
        if key in _ONE_LINE_PER_RECORD and not isinstance(value, dict):
            yield from _record_lines(head, value)
        else:
            yield head + json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
    yield "\n}\n"


def _record_lines(head: str, records: Iterable[Any]) -> Iterator[str]:
    opened = False
    for record in records:
        line = record if isinstance(record, RawJson) else _compact(record)
        yield ",\n    " if opened else head + "[\n    "
        yield line
        opened = True
    yield "\n  ]" if opened else head + "[]"


def _compact(record: Any) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def dump_json(report: dict[str, Any]) -> str:
    return "".join(json_chunks(report))


def write_json_atomic(path: Path, report: dict[str, Any]) -> None:
    """leakage.json written as it is produced (never built whole in memory), into a temporary
    file renamed onto `path` once complete: a crash leaves no half-written report."""
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as handle:
        for chunk in json_chunks(report):
            handle.write(chunk)
