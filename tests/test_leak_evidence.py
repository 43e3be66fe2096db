"""leakage.json/.md quote what makes a leak a leak: shared lines are weighed by how rare they are
among the benchmark answers and the corpus units, so lines every kernel has (`#include
"kernel_operator.h"`, `using namespace AscendC;`, `SyncAll();`) are never the quoted evidence,
and the strongest range is the most distinctive one, not the longest. Every count in the
Markdown's opening matches the list it names."""

from __future__ import annotations

import dataclasses
import re

from curate.report.evidence import Evidence, LineRarity
from curate.report.leakage import build_json
from curate.report.leakage_md import build_markdown, summary_line
from dedup.config import DedupConfig
from tests.test_dedup_helpers import elementwise_kernel, item, run_audit, unit, unrelated_kernel

BOILER = [
    '#include "kernel_operator.h"',
    "using namespace AscendC;",
    "constexpr int32_t BUFFER_NUM = 2;",
    "constexpr int32_t TILE_NUM = 8;",
    "SyncAll();",
    "AscendC::TPipe pipe;",
    "pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(half));",
]
RARE = [
    "float scale = 0.7978845608f * (1.0f + 0.044715f * x * x);",
    "AscendC::Muls(tmpLocal, xLocal, scale, this->tileLength);",
    "AscendC::Tanh(tmpLocal, tmpLocal, this->tileLength);",
    "AscendC::Adds(tmpLocal, tmpLocal, (half)1.0, this->tileLength);",
]


def kernel(name: str, body: list[str]) -> str:
    """Boilerplate every kernel has (7 lines, the longest shared run), then its own body."""
    filler = [f"int {name}_local_{i} = {i} * {name}_base + {i % 3};" for i in range(12)]
    return "\n".join([*BOILER, f"void {name}_kernel(int {name}_base) {{", *filler, *body, "}"])


def test_the_quoted_evidence_is_the_rare_code_not_the_boilerplate() -> None:
    answer = kernel("gelu", RARE)
    copy = kernel("mygelu", RARE)  # the distinctive body copied, the rest its own
    others = [kernel(f"op{i}", [f"x{i} = y{i} + {i};"]) for i in range(12)]
    rarity = LineRarity.of([answer, *others[:6]], [copy, *others[6:]])
    found = Evidence(rarity=rarity).between(answer, copy)
    quoted = [line["text"] for line in found["excerpt"]]
    assert quoted == RARE[:3]
    assert not set(quoted) & set(BOILER)
    b0, b1, _, _ = found["ranges"][0]  # strongest first: the rare run, not the longer boilerplate
    assert answer.split("\n")[b0 - 1 : b1] == RARE
    assert found["distinctive_line_count"] == len(RARE)
    assert found["overlapping_line_count"] == len(RARE) + len(BOILER)


def test_without_a_reference_every_shared_line_counts() -> None:
    answer = kernel("gelu", RARE)
    found = Evidence().between(answer, kernel("mygelu", RARE))
    assert found["distinctive_line_count"] == found["overlapping_line_count"]
    assert [line["text"] for line in found["excerpt"]] == BOILER[:3]  # the longest run, in order


def test_the_opening_counts_match_the_lists_below() -> None:
    add = elementwise_kernel()
    units = [
        unit("u1", add, op="AddCustom"),  # copies the answer: a leak and a name match
        unit("u2", unrelated_kernel(), op="SubCustom"),  # the name only
        unit("u3", unrelated_kernel() + "\n// v2", op="MulCustom"),  # the name only
    ]
    units = [dataclasses.replace(u, op_name=u.op_name) for u in units]
    items = [
        item("b1", [add], task="AddCustom"),
        item("b2", ["int sub;"], task="SubCustom", level=2),
        item("b3", ["int mul;"], task="MulCustom", level=2),
    ]
    cfg = DedupConfig()
    findings, counts = run_audit(units, items, cfg)
    report = build_json(findings, units, items, cfg, counts)
    text = build_markdown(report)
    listed = [
        line for line in text.split("## Name matches, code differs")[1].splitlines() if line.startswith("- ")
    ]
    opening = text.split("## Per benchmark")[0]
    said = re.search(
        r"(\d+) op-name matches \(unit, benchmark item\): (\d+) also share code, (\d+) where", opening
    )
    assert said is not None, opening
    total, also, differs = map(int, said.groups())
    assert total == len(report["name_matches"]) == 3
    assert (also, differs) == (1, 2) and differs == len(listed)
    top = [line for line in text.splitlines() if line.startswith("### ")]
    assert f"## Top matches (the strongest {len(top)} of {len(top)})" in text
    assert f"- {len(report['leaks'])} leaking pair (unit, benchmark item)" in opening


def test_no_benchmark_no_leak_figures() -> None:
    counts = {"units": 4, "kept": 3, "duplicates": 1, "exact_duplicates": 1, "near_duplicates": 0}
    line = summary_line({**counts, "benchmark_items": 0}, ["no benchmark ingested: no leakage check"])
    assert line == "4 units: 3 kept, 1 duplicate (1 exact, 0 near); no benchmark ingested: no leakage check"
    report = {"parameters": {}, "counts": counts, "per_benchmark_level": [], "leaks": [], "name_matches": []}
    assert "no leakage check ran" in build_markdown(report) and "Top matches" not in build_markdown(report)


def test_the_opening_names_the_benchmarks_and_the_task_policy() -> None:
    rows = [
        {"benchmark": "bench-a", "level": 1, "items": 3},
        {"benchmark": "bench-a", "level": 2, "items": 2},
        {"benchmark": "bench-b", "level": 1, "items": 1},
    ]
    params = {"threshold": 0.7, "containment": 0.8, "ngram": 5, "abstract_identifiers": False}
    counts = {"leaks": 3, "task_matches": 2, "task_leaks_dropped": 2}
    report = {
        "parameters": params,
        "counts": counts,
        "per_benchmark_level": rows,
        "leaks": [],
        "name_matches": [],
    }
    for row in rows:
        row.update(items_with_code=row["items"], leaked_items=0, leaking_units=0, name_only_items=0)
    drop = build_markdown({**report, "task_leak_policy": "drop"})
    assert "- Compared with bench-a (5 items), bench-b (1 item)." in drop
    assert (
        "- Task-level policy `--task-leaks drop`: 2 units solving a task with other code, 2 marked leak."
        in drop
    )
    assert "- 3 corpus units marked leak (1 for copied code, 2 for a solved task)." in drop
    flag = build_markdown({**report, "counts": {"leaks": 1, "task_matches": 2}, "task_leak_policy": "flag"})
    assert "`--task-leaks flag`: 2 units solving a task with other code, listed under" in flag
    assert "Task-level policy" not in build_markdown(report)  # audit: no policy
