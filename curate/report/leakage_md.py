"""leakage.md, the leakage report for people, and the one-line summary `curate dedup` prints.

Every count in the opening paragraph is the length of a list below it (or says which part of it
is listed), and a dedup that compared no benchmark says so instead of printing empty tables."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from curate.wording import plural

TOP_MATCHES = 20  # matches shown side by side
NAME_MATCHES_LISTED = 50
EXCERPT_LINES_MD = 8


def _kernel(row: dict[str, Any]) -> str:
    return f" kernel `{row['kernel_name']}`" if row.get("kernel_name") else ""


def _range_text(ranges: list[list[int]]) -> str:
    """The strongest range (leakage.json lists them strongest first)."""
    if not ranges:
        return "none"
    b0, b1, c0, c1 = ranges[0]
    return f"benchmark {b0}-{b1} = corpus {c0}-{c1}"


def _cell(text: str) -> str:
    text = text.replace("|", "\\|").replace("`", "'")
    return f"`{text[:90]}`" if text else ""


def _opening(report: dict[str, Any], groups: int) -> list[str]:
    """Thresholds, then each count with the section that lists it."""
    params, counts = report["parameters"], report["counts"]
    names = report["name_matches"]
    differs = sum(not m["code_also_matches"] for m in names)
    task_dropped = counts.get("task_leaks_dropped", 0)
    marked = counts.get("leaks", 0)
    why = (
        f" ({marked - task_dropped:,} for copied code, {task_dropped:,} for a solved task)"
        if task_dropped
        else ""
    )
    pairs = plural(len(report["leaks"]), "leaking pair")
    matches = plural(groups, "distinct match", "distinct matches")
    top = f"; the strongest {min(groups, TOP_MATCHES):,} under *Top matches*" if groups else ""
    listed = f" (the first {NAME_MATCHES_LISTED} listed)" if differs > NAME_MATCHES_LISTED else ""
    return [
        f"Jaccard >= {params['threshold']} or containment >= {params['containment']} "
        f"({params['ngram']}-token shingles, identifiers abstracted: {params['abstract_identifiers']}).",
        "",
        f"- Compared with {_benchmarks(report['per_benchmark_level'])}.",
        *_task_policy(report),
        f"- {plural(marked, 'corpus unit')} marked leak{why}.",
        f"- {pairs} (unit, benchmark item), {matches} (unit, answer file){top}.",
        f"- {plural(len(names), 'op-name match', 'op-name matches')} (unit, benchmark item): "
        f"{len(names) - differs:,} also share code, {differs:,} where the code differs{listed}"
        + (" under *Name matches, code differs*." if differs else "."),
    ]


def _benchmarks(rows: list[dict[str, Any]]) -> str:
    items: dict[str, int] = {}
    for row in rows:
        items[row["benchmark"]] = items.get(row["benchmark"], 0) + row["items"]
    return ", ".join(f"{name} ({plural(n, 'item')})" for name, n in sorted(items.items()))


def _task_policy(report: dict[str, Any]) -> list[str]:
    """The task-level policy `curate dedup` ran with (`--task-leaks`); audit has none."""
    policy = report.get("task_leak_policy")
    if not policy:
        return []
    n = report["counts"].get("task_matches", 0)
    done = (
        f"{report['counts'].get('task_leaks_dropped', 0):,} marked leak"
        if policy == "drop"
        else "listed under *Task-level matches*, none removed for it"
    )
    return [
        f"- Task-level policy `--task-leaks {policy}`: {plural(n, 'unit')} solving a task with other code, {done}."
    ]


def build_markdown(report: dict[str, Any], title: str = "Leakage report", notes: Sequence[str] = ()) -> str:
    """The report for people; `notes`: paragraphs placed under the opening one."""
    out = [f"# {title}", ""]
    if not report["per_benchmark_level"]:
        out.append(
            "No benchmark was compared: no leakage check ran (`curate ingest BENCH --benchmark`, then dedup)."
        )
        return "\n".join(out) + "\n"
    groups = _same_evidence(report["leaks"])
    out += _opening(report, len(groups))
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
    out += ["", f"## Top matches (the strongest {min(len(groups), TOP_MATCHES):,} of {len(groups):,})", ""]
    if not report["leaks"]:
        out.append("No leak above the thresholds.")
    for n, (leak, more) in enumerate(groups[:TOP_MATCHES], start=1):
        out += _match(n, leak, more)
    names = [m for m in report["name_matches"] if not m["code_also_matches"]]
    out += ["", "## Name matches, code differs", ""]
    out += [
        f"- `{m['unit_path']}`{_kernel(m)} ({m['op_name']}) ~ {m['benchmark']} `{m['task_name']}`"
        for m in names[:NAME_MATCHES_LISTED]
    ]
    if not names:
        out.append("None.")
    return "\n".join(out) + "\n"


def _match(n: int, leak: dict[str, Any], more: int) -> list[str]:
    also = f", and {more} more item{'s' * (more != 1)} with this answer file" if more else ""
    shared = leak["overlapping_line_count"]
    distinctive = leak.get("distinctive_line_count", shared)
    out = [
        f"### {n}. {leak['unit_source']}:`{leak['unit_path']}`{_kernel(leak)} matches "
        f"{leak['benchmark']} `{leak['task_name']}` (level {leak['level']}){also}",
        "",
        f"{leak['method']} {leak['score']:.3f} (Jaccard {leak['jaccard']:.3f}, containment "
        f"{leak['containment']:.3f}, {shared} shared lines, {distinctive} of them not common to most kernels, "
        f"in {leak['range_count']} ranges; strongest: {_range_text(leak['ranges'])})",
        "",
    ]
    quoted = leak.get("excerpt") or leak.get("overlapping_lines", [])
    if not quoted:
        return [
            *out,
            "Every shared line is one most kernels have; the match rests on the shingle overlap.",
            "",
        ]
    out += [f"| benchmark `{leak['answer_path']}` | corpus `{leak['unit_path']}` |", "|---|---|"]
    for line in quoted[:EXCERPT_LINES_MD]:
        bench_text = line.get("benchmark_text", line["text"])
        out.append(
            f"| {line['benchmark_line']}: {_cell(bench_text)} | {line['corpus_line']}: {_cell(line['text'])} |"
        )
    return [*out, ""]


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


def summary_line(counts: dict[str, int], notes: list[str]) -> str:
    """`curate dedup`'s line; no leak figures when no benchmark was compared (the note says so)."""
    text = (
        f"{plural(counts['units'], 'unit')}: {counts['kept']:,} kept, {plural(counts['duplicates'], 'duplicate')} "
        f"({counts['exact_duplicates']:,} exact, {counts['near_duplicates']:,} near)"
    )
    if counts.get("benchmark_items"):
        text += (
            f", {plural(counts['leaks'], 'leak')} ({counts['leaked_items']:,} of "
            f"{plural(counts['benchmark_items'], 'benchmark item')} leaked), "
            f"{plural(counts['name_matches'], 'name match', 'name matches')}"
        )
    return text + "".join(f"; {note}" for note in notes)
