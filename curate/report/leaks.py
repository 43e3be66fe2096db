"""Leaks for the page: a sortable table (a sample of `reports/leakage.json`, strongest first) and,
for the strongest pairs, the unit and the benchmark answer side by side with the shared line
ranges marked.

Only the lines around the shared ranges are shown (a real unit can be 60,000 lines): each range
with a few lines of context, the gaps between them folded into one line that says how many lines
it hides, and at most `MAX_VIEW_LINES` lines a side.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import polars as pl

from curate.report.evidence import LineRarity
from curate.workspace import Workspace

CONTEXT = 2  # lines shown around each shared range
MAX_VIEW_LINES = 120  # lines shown per side of one view
TABLE_KEYS = (
    "unit_source",
    "unit_path",
    "kernel_name",
    "benchmark",
    "task_name",
    "level",
    "method",
    "score",
    "jaccard",
    "containment",
    "overlapping_line_count",
)


@dataclass(slots=True)
class ShownLine:
    number: int  # 1-based line number; 0 for a fold ("... N lines ...")
    text: str
    shared: bool = False
    common: bool = False  # shared, but a line most benchmark answers have (include, using, braces)


@dataclass(slots=True)
class LeakView:
    index: int
    record: dict[str, Any]  # the leakage.json record (without its excerpt)
    unit_lines: list[ShownLine] = field(default_factory=list)
    bench_lines: list[ShownLine] = field(default_factory=list)
    unit_total: int = 0
    bench_total: int = 0


def read_leakage(ws: Workspace) -> dict[str, Any] | None:
    path, _ = ws.leakage_reports()
    if not path.exists():
        return None
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    return data


def _strongest(leaks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(leaks, key=lambda r: (-float(r.get("score", 0.0)), str(r.get("unit_path", ""))))


def _key(line: str) -> str:
    return " ".join(line.split())


def common_lines(answers: list[str]) -> frozenset[str]:
    """Lines (whitespace folded) that at least a quarter of the answers contain: `#include
    "kernel_operator.h"`, `using namespace AscendC;`. Marked lighter in the views; the same
    measure as the evidence of leakage.json (`evidence.LineRarity`)."""
    return LineRarity(answers).common_keys()


def window(
    lines: list[str],
    spans: list[tuple[int, int]],
    limit: int = MAX_VIEW_LINES,
    common: frozenset[str] = frozenset(),
) -> list[ShownLine]:
    """The lines of `spans` (1-based, inclusive) with CONTEXT lines around each, gaps folded;
    shared lines in `common` (or blank) are flagged so the page can mark them lighter."""
    if not lines:
        return []
    shared: set[int] = set()
    for lo, hi in spans:
        shared.update(range(max(1, lo), min(len(lines), hi) + 1))
    wanted: set[int] = set()
    for n in shared:
        wanted.update(range(max(1, n - CONTEXT), min(len(lines), n + CONTEXT) + 1))
    if not wanted:
        wanted = set(range(1, min(len(lines), limit) + 1))
    shown: list[ShownLine] = []
    previous = 0
    for n in sorted(wanted):
        if len(shown) >= limit:
            break
        if n > previous + 1:
            shown.append(ShownLine(0, f"... {n - previous - 1} lines ..."))
        text = lines[n - 1]
        shown.append(
            ShownLine(n, text, n in shared, n in shared and (not text.strip() or _key(text) in common))
        )
        previous = n
    if previous < len(lines):
        shown.append(ShownLine(0, f"... {len(lines) - previous} lines ..."))
    return shown


def _answer_code(item: dict[str, Any] | None, answer_path: str) -> str:
    if item is None:
        return ""
    answers: list[str] = list(item.get("answers") or [])
    paths: list[str] = list(item.get("answer_paths") or [])
    if answer_path in paths and paths.index(answer_path) < len(answers):
        return answers[paths.index(answer_path)]
    return answers[0] if answers else ""


def leak_views(
    ws: Workspace, leakage: dict[str, Any], max_rows: int, max_views: int
) -> tuple[list[dict[str, Any]], list[LeakView]]:
    """(table rows, side-by-side views) for the strongest leaks; each table row has `view`, the
    index of its view or -1."""
    leaks = _strongest(list(leakage.get("leaks", [])))[:max_rows]
    viewed = leaks[:max_views]
    unit_ids = sorted({str(r["unit_id"]) for r in viewed})
    item_ids = sorted({str(r["item_id"]) for r in viewed})
    codes: dict[str, str] = {}
    if unit_ids and ws.units.exists():
        frame = (
            pl.scan_parquet(ws.units)
            .filter(pl.col("unit_id").is_in(unit_ids))
            .select("unit_id", "code")
            .collect()
        )
        codes = dict(zip(frame["unit_id"].to_list(), frame["code"].to_list(), strict=True))
    items: dict[str, dict[str, Any]] = {}
    common: frozenset[str] = frozenset()
    if item_ids and ws.benchmark.exists():
        # Every answer of the benchmark (benchmarks are hundreds of items): which lines are common.
        frame = pl.read_parquet(ws.benchmark, columns=["item_id", "answers", "answer_paths"])
        common = common_lines([a for answers in frame["answers"].to_list() for a in answers or []])
        frame = frame.filter(pl.col("item_id").is_in(item_ids))
        items = {row["item_id"]: row for row in frame.iter_rows(named=True)}
    views: list[LeakView] = []
    for index, record in enumerate(viewed):
        ranges = [tuple(r) for r in record.get("ranges", []) if len(r) == 4]
        unit_code = codes.get(str(record["unit_id"]), "").split("\n")
        bench_code = _answer_code(items.get(str(record["item_id"])), str(record.get("answer_path", "")))
        bench = bench_code.split("\n") if bench_code else []
        views.append(
            LeakView(
                index,
                {k: v for k, v in record.items() if k not in ("excerpt", "overlapping_lines")},
                window(unit_code, [(r[2], r[3]) for r in ranges], common=common),
                window(bench, [(r[0], r[1]) for r in ranges], common=common),
                len(unit_code),
                len(bench),
            )
        )
    rows = [
        {**{k: r.get(k, "") for k in TABLE_KEYS}, "view": i if i < len(views) else -1}
        for i, r in enumerate(leaks)
    ]
    return rows, views
