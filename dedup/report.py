"""Leakage reports: every leak with both sides and the lines they share (JSON), and a readable
summary per benchmark and level with the strongest matches side by side (Markdown)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from dedup.config import DedupConfig
from dedup.decide import Leak, LeakFindings
from dedup.normalize import normalized_lines
from schemas import BenchmarkItem, KernelUnit

MAX_LINES_PER_LEAK = 200  # overlapping lines listed in the JSON for one leak
TOP_MATCHES = 20  # matches shown side by side in the Markdown
EXCERPT_LINES = 8
_MIN_LINE_TOKENS = 3  # "}" or "return;" alone say nothing about copying


def overlapping_lines(bench_code: str, corpus_code: str) -> list[dict[str, Any]]:
    """Lines of the benchmark answer that appear (normalised) in the corpus unit, in answer order."""
    corpus_at: dict[str, int] = {}
    for number, text in enumerate(normalized_lines(corpus_code), start=1):
        if text.count(" ") + 1 >= _MIN_LINE_TOKENS:
            corpus_at.setdefault(text, number)
    bench_raw = bench_code.split("\n")
    corpus_raw = corpus_code.split("\n")
    out = []
    for number, text in enumerate(normalized_lines(bench_code), start=1):
        if text in corpus_at:
            other = corpus_at[text]
            out.append(
                {
                    "benchmark_line": number,
                    "corpus_line": other,
                    "benchmark_text": bench_raw[number - 1].strip()[:200],
                    "corpus_text": corpus_raw[other - 1].strip()[:200],
                }
            )
    return out


def _answer_path(item: BenchmarkItem, answer: int) -> str:
    return item.answer_paths[answer] if answer < len(item.answer_paths) else item.path


def leak_record(leak: Leak, units: list[KernelUnit], items: list[BenchmarkItem]) -> dict[str, Any]:
    unit, item = units[leak.unit], items[leak.item]
    lines = overlapping_lines(item.answers[leak.answer], unit.code)
    return {
        "unit_id": unit.unit_id,
        "unit_source": unit.source,
        "unit_path": unit.path,
        "unit_op_name": unit.op_name,
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
        "overlapping_line_count": len(lines),
        "overlapping_lines": lines[:MAX_LINES_PER_LEAK],
    }


def name_records(
    findings: LeakFindings, units: list[KernelUnit], items: list[BenchmarkItem]
) -> list[dict[str, Any]]:
    leaked = {(lk.unit, lk.item) for lk in findings.leaks}
    return [
        {
            "unit_id": units[u].unit_id,
            "unit_path": units[u].path,
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
    return {
        "parameters": dataclasses.asdict(cfg),
        "counts": counts,
        "per_benchmark_level": summary_rows(findings, items),
        "leaks": [leak_record(lk, units, items) for lk in findings.leaks],
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


def _cell(text: str) -> str:
    text = text.replace("|", "\\|").replace("`", "'")
    return f"`{text[:90]}`" if text else ""


def build_markdown(report: dict[str, Any], title: str = "Leakage report") -> str:
    params, counts = report["parameters"], report["counts"]
    out = [f"# {title}", ""]
    out.append(
        f"Jaccard >= {params['threshold']} or containment >= {params['containment']} "
        f"({params['ngram']}-token shingles, identifiers abstracted: {params['abstract_identifiers']}). "
        f"{counts.get('leaks', 0)} corpus units leak; {len(report['leaks'])} leaking pairs; "
        f"{len(report['name_matches'])} op-name matches."
    )
    out += ["", "## Per benchmark and level", ""]
    out.append(
        "| benchmark | level | items | items with code | leaked items | leaking units | name-only items |"
    )
    out.append("|---|---:|---:|---:|---:|---:|---:|")
    for row in report["per_benchmark_level"]:
        out.append(
            f"| {row['benchmark']} | {row['level']} | {row['items']} | {row['items_with_code']} | "
            f"{row['leaked_items']} | {row['leaking_units']} | {row['name_only_items']} |"
        )
    out += ["", f"## Top matches (strongest {TOP_MATCHES})", ""]
    if not report["leaks"]:
        out.append("No leak above the thresholds.")
    for n, leak in enumerate(report["leaks"][:TOP_MATCHES], start=1):
        out.append(
            f"### {n}. {leak['unit_source']}:`{leak['unit_path']}` matches {leak['benchmark']} "
            f"`{leak['task_name']}` (level {leak['level']})"
        )
        out.append("")
        out.append(
            f"{leak['method']} {leak['score']:.3f} (Jaccard {leak['jaccard']:.3f}, containment "
            f"{leak['containment']:.3f}, {leak['overlapping_line_count']} shared lines)"
        )
        out += ["", f"| benchmark `{leak['answer_path']}` | corpus `{leak['unit_path']}` |", "|---|---|"]
        for line in leak["overlapping_lines"][:EXCERPT_LINES]:
            out.append(
                f"| {line['benchmark_line']}: {_cell(line['benchmark_text'])} | "
                f"{line['corpus_line']}: {_cell(line['corpus_text'])} |"
            )
        out.append("")
    names = [m for m in report["name_matches"] if not m["code_also_matches"]]
    out += ["", "## Name matches, code differs", ""]
    out += [
        f"- `{m['unit_path']}` ({m['op_name']}) ~ {m['benchmark']} `{m['task_name']}`" for m in names[:50]
    ]
    if not names:
        out.append("None.")
    return "\n".join(out) + "\n"


def dump_json(report: dict[str, Any]) -> str:
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


def summary_line(counts: dict[str, int], notes: list[str]) -> str:
    text = (
        f"{counts['units']} units: {counts['kept']} kept, {counts['duplicates']} duplicates "
        f"({counts['exact_duplicates']} exact, {counts['near_duplicates']} near), {counts['leaks']} leaks "
        f"({counts['leaked_items']} of {counts['benchmark_items']} benchmark items leaked), "
        f"{counts['name_matches']} name matches"
    )
    return text + "".join(f"; {note}" for note in notes)
