"""Leakage reports: every leak with both sides (file and kernel) and where they overlap (JSON),
and a readable summary per benchmark and level with the strongest matches side by side (Markdown).

The evidence per pair is bounded: the shared line ranges on both sides (the longest few, and
how many there are) and a few quoted lines. `full_evidence` quotes every shared line."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dedup.config import DedupConfig
from dedup.decide import Leak, LeakFindings
from dedup.normalize import token_count
from schemas import BenchmarkItem, KernelUnit
from schemas.cpp import mask_comments

EXCERPT_LINES = 3  # shared lines quoted per leak in leakage.json (every one with full_evidence)
MAX_RANGES = 8  # longest shared line ranges listed per leak (the total is always given)
TOP_MATCHES = 20  # matches shown side by side in the Markdown
_MIN_LINE_TOKENS = 3  # "}" or "return;" alone say nothing about copying
_RUN_GAP = 3  # shared lines this close on both sides belong to one range (blank lines between)
_TEXT_CHARS = 160


@dataclass(slots=True)
class _Doc:
    raw: list[str]
    keys: list[str]  # each line without comments, whitespace folded


def _doc(code: str) -> _Doc:
    # Lines compare without comments and with whitespace folded: several times cheaper than
    # tokenising every line of a 60,000-line unit, and copied lines compare equal all the same.
    return _Doc(code.split("\n"), [" ".join(line.split()) for line in mask_comments(code).split("\n")])


def _line_index(doc: _Doc) -> dict[str, int]:
    at: dict[str, int] = {}
    for number, key in enumerate(doc.keys, start=1):
        if key:
            at.setdefault(key, number)
    return at


@functools.cache
def _says_something(key: str) -> bool:
    return token_count(key) >= _MIN_LINE_TOKENS


def _shared(bench: _Doc, corpus_at: dict[str, int]) -> list[tuple[int, int]]:
    """(benchmark line, corpus line) for every benchmark line found in the corpus document."""
    return [
        (n, corpus_at[k]) for n, k in enumerate(bench.keys, start=1) if k in corpus_at and _says_something(k)
    ]


def _ranges(pairs: list[tuple[int, int]]) -> list[list[int]]:
    """Runs of shared lines that advance together on both sides: [bench_from, bench_to,
    corpus_from, corpus_to], 1-based and inclusive."""
    runs: list[list[int]] = []
    if not pairs:
        return runs
    (b0, c0), (b1, c1) = pairs[0], pairs[0]
    for b, c in pairs[1:]:
        if 0 < b - b1 <= _RUN_GAP and 0 < c - c1 <= _RUN_GAP:
            b1, c1 = b, c
        else:
            runs.append([b0, b1, c0, c1])
            b0, c0, b1, c1 = b, c, b, c
    runs.append([b0, b1, c0, c1])
    return runs


def _quote(bench: _Doc, corpus: _Doc, b: int, c: int) -> dict[str, Any]:
    line: dict[str, Any] = {
        "benchmark_line": b,
        "corpus_line": c,
        "text": corpus.raw[c - 1].strip()[:_TEXT_CHARS],
    }
    bench_text = bench.raw[b - 1].strip()[:_TEXT_CHARS]
    if bench_text != line["text"]:
        line["benchmark_text"] = bench_text
    return line


class Evidence:
    """What two documents share, bounded: line ranges on both sides and a few quoted lines
    (every shared line with `full`). Each distinct text is normalised once, and each distinct
    pair of texts compared once (the kernels of one multi-kernel file share their code)."""

    def __init__(self, full: bool = False) -> None:
        self.full = full
        self._bench: dict[str, _Doc] = {}
        self._corpus: dict[str, tuple[_Doc, dict[str, int]]] = {}
        self._pairs: dict[tuple[str, str], dict[str, Any]] = {}

    def between(self, bench_code: str, corpus_code: str) -> dict[str, Any]:
        done = self._pairs.get((bench_code, corpus_code))
        if done is None:
            done = self._pairs[(bench_code, corpus_code)] = self._compare(bench_code, corpus_code)
        return dict(done)

    def _compare(self, bench_code: str, corpus_code: str) -> dict[str, Any]:
        bench = self._bench.get(bench_code)
        if bench is None:
            bench = self._bench[bench_code] = _doc(bench_code)
        if corpus_code not in self._corpus:
            doc = _doc(corpus_code)
            self._corpus[corpus_code] = (doc, _line_index(doc))
        corpus, corpus_at = self._corpus[corpus_code]
        pairs = _shared(bench, corpus_at)
        ranges = _ranges(pairs)
        longest = sorted(ranges, key=lambda r: (-(r[1] - r[0]), r[0]))
        out: dict[str, Any] = {
            "overlapping_line_count": len(pairs),
            "range_count": len(ranges),
            "ranges": sorted(longest[:MAX_RANGES]),
        }
        if self.full:
            out["overlapping_lines"] = [_quote(bench, corpus, b, c) for b, c in pairs]
        else:
            first = longest[0][0] if longest else 0
            quoted = list(itertools.islice(((b, c) for b, c in pairs if b >= first), EXCERPT_LINES))
            out["excerpt"] = [_quote(bench, corpus, b, c) for b, c in quoted]
        return out


def overlapping_lines(bench_code: str, corpus_code: str) -> list[dict[str, Any]]:
    """Every line of the benchmark answer that appears (normalised) in the corpus unit, in answer
    order, quoted."""
    lines: list[dict[str, Any]] = Evidence(full=True).between(bench_code, corpus_code)["overlapping_lines"]
    return lines


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
    `cfg.full_evidence`, so the report grows with the number of pairs, not with their sizes."""
    evidence = Evidence(full=cfg.full_evidence)
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


EXCERPT_LINES_MD = 8


def _kernel(row: dict[str, Any]) -> str:
    return f" kernel `{row['kernel_name']}`" if row.get("kernel_name") else ""


def _range_text(ranges: list[list[int]]) -> str:
    if not ranges:
        return "none"
    b0, b1, c0, c1 = max(ranges, key=lambda r: r[1] - r[0])
    return f"benchmark {b0}-{b1} = corpus {c0}-{c1}"


def _cell(text: str) -> str:
    text = text.replace("|", "\\|").replace("`", "'")
    return f"`{text[:90]}`" if text else ""


def build_markdown(report: dict[str, Any], title: str = "Leakage report", notes: Sequence[str] = ()) -> str:
    """The report for people; `notes`: paragraphs placed under the opening one."""
    params, counts = report["parameters"], report["counts"]
    out = [f"# {title}", ""]
    out.append(
        f"Jaccard >= {params['threshold']} or containment >= {params['containment']} "
        f"({params['ngram']}-token shingles, identifiers abstracted: {params['abstract_identifiers']}). "
        f"{counts.get('leaks', 0)} corpus units leak; {len(report['leaks'])} leaking pairs; "
        f"{len(report['name_matches'])} op-name matches."
    )
    for note in notes:
        out += ["", note]
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
    for n, (leak, more) in enumerate(_same_evidence(report["leaks"])[:TOP_MATCHES], start=1):
        also = f", and {more} more item{'s' * (more != 1)} with this answer file" if more else ""
        out.append(
            f"### {n}. {leak['unit_source']}:`{leak['unit_path']}`{_kernel(leak)} matches "
            f"{leak['benchmark']} `{leak['task_name']}` (level {leak['level']}){also}"
        )
        out.append("")
        out.append(
            f"{leak['method']} {leak['score']:.3f} (Jaccard {leak['jaccard']:.3f}, containment "
            f"{leak['containment']:.3f}, {leak['overlapping_line_count']} shared lines in "
            f"{leak['range_count']} ranges; longest: {_range_text(leak['ranges'])})"
        )
        out += ["", f"| benchmark `{leak['answer_path']}` | corpus `{leak['unit_path']}` |", "|---|---|"]
        quoted = leak.get("excerpt") or leak.get("overlapping_lines", [])
        for line in quoted[:EXCERPT_LINES_MD]:
            bench_text = line.get("benchmark_text", line["text"])
            out.append(
                f"| {line['benchmark_line']}: {_cell(bench_text)} | {line['corpus_line']}: {_cell(line['text'])} |"
            )
        out.append("")
    names = [m for m in report["name_matches"] if not m["code_also_matches"]]
    out += ["", "## Name matches, code differs", ""]
    out += [
        f"- `{m['unit_path']}`{_kernel(m)} ({m['op_name']}) ~ {m['benchmark']} `{m['task_name']}`"
        for m in names[:50]
    ]
    if not names:
        out.append("None.")
    return "\n".join(out) + "\n"


_SAME_EVIDENCE = ("unit_id", "answer_path", "method", "score")  # leaks that quote the same lines


def _same_evidence(leaks: list[dict[str, Any]]) -> list[tuple[dict[str, Any], int]]:
    """Each leak with the number of later leaks that repeat its evidence: the same unit against
    the same answer file, as when the kernels of one file are items of their own. Sorted leaks
    put these next to each other (equal scores, then unit, then item)."""
    groups: list[tuple[dict[str, Any], int]] = []
    for leak in leaks:
        if groups:
            first, more = groups[-1]
            if all(first[k] == leak[k] for k in _SAME_EVIDENCE):
                groups[-1] = (first, more + 1)
                continue
        groups.append((leak, 0))
    return groups


def dump_json(report: dict[str, Any]) -> str:
    """Indented at the top, one compact line per leak and per name match: readable, greppable
    and a fraction of the size of indenting every nested list."""
    parts = []
    for key, value in report.items():
        head = json.dumps(key)
        if key in ("leaks", "name_matches") and value:
            rows = ",\n".join(
                "    " + json.dumps(v, ensure_ascii=False, separators=(",", ":")) for v in value
            )
            parts.append(f"  {head}: [\n{rows}\n  ]")
        else:
            body = json.dumps(value, indent=2, ensure_ascii=False).replace("\n", "\n  ")
            parts.append(f"  {head}: {body}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def summary_line(counts: dict[str, int], notes: list[str]) -> str:
    text = (
        f"{counts['units']} units: {counts['kept']} kept, {counts['duplicates']} duplicates "
        f"({counts['exact_duplicates']} exact, {counts['near_duplicates']} near), {counts['leaks']} leaks "
        f"({counts['leaked_items']} of {counts['benchmark_items']} benchmark items leaked), "
        f"{counts['name_matches']} name matches"
    )
    return text + "".join(f"; {note}" for note in notes)
