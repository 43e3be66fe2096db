"""leakage.json scales with the number of leaking pairs, not with the size of the documents:
bounded evidence (line ranges on both sides, a few quoted lines) unless full evidence is asked
for, and every row names the kernel, not only the file."""

from __future__ import annotations

import dataclasses
import json

from curate.report.evidence import EXCERPT_LINES
from curate.report.leakage import build_json, dump_json
from curate.report.leakage_md import build_markdown
from dedup.config import DedupConfig
from tests.test_dedup_helpers import elementwise_kernel, item, run_audit, unit


def big_file(n_kernels: int) -> str:
    """One file with several kernels: the benchmark answer sits in it among unrelated code."""
    filler = "\n".join(f"int helper_{i}(int a, int b) {{ return a * {i} + b; }}" for i in range(3000))
    return filler + "\n" + elementwise_kernel() + "\n" + filler


def audit_report(full: bool) -> tuple[dict, str]:
    code = big_file(3)
    units = [
        dataclasses.replace(unit(f"u{k}", code, op="add_custom"), kernel_name=f"add_kernel_{k}")
        for k in range(3)
    ]
    items = [item("b1", [elementwise_kernel()])]
    cfg = DedupConfig(full_evidence=full)
    findings, counts = run_audit(units, items, cfg)
    report = build_json(findings, units, items, cfg, counts)
    return report, dump_json(report)


def test_bounded_evidence_gives_ranges_and_a_few_lines_whatever_the_unit_size() -> None:
    report, text = audit_report(full=False)
    assert len(report["leaks"]) == 3
    for leak in report["leaks"]:
        (b0, b1, c0, c1), *_ = leak["ranges"]
        assert c0 == b0 + 3000 and c1 - c0 == b1 - b0  # the answer's lines, found after the filler
        assert len(leak["excerpt"]) == EXCERPT_LINES
        assert "overlapping_lines" not in leak
    # Three pairs of 6,000-line files: a few kB, one line per leak.
    assert len(text) < 8_000
    assert json.loads(text) == report
    assert sum('"excerpt"' in line for line in text.splitlines()) == 3  # one line per leak


def test_full_evidence_quotes_every_shared_line() -> None:
    report, _ = audit_report(full=True)
    leak = report["leaks"][0]
    assert len(leak["overlapping_lines"]) == leak["overlapping_line_count"] > EXCERPT_LINES


def test_every_row_names_the_kernel() -> None:
    report, _ = audit_report(full=False)
    assert sorted(lk["kernel_name"] for lk in report["leaks"]) == [
        "add_kernel_0",
        "add_kernel_1",
        "add_kernel_2",
    ]
    markdown = build_markdown(report)
    for k in range(3):
        assert f"kernel `add_kernel_{k}` matches" in markdown


def test_items_sharing_one_answer_file_are_one_match_in_the_markdown() -> None:
    # The three kernels of one benchmark file are three items with the same answer (as a kernel
    # folder gives them); a unit copying the file matches all three with the same evidence.
    code = elementwise_kernel()
    units = [unit("u1", code, op="add_custom")]
    same_file = [dataclasses.replace(item(f"b{k}", [code]), answer_paths=["add.asc"]) for k in range(3)]
    other_file = dataclasses.replace(item("b9", [code]), answer_paths=["add_copy.asc"])
    items = [*same_file, other_file]
    cfg = DedupConfig()
    findings, counts = run_audit(units, items, cfg)
    report = build_json(findings, units, items, cfg, counts)
    assert len(report["leaks"]) == 4  # the JSON keeps every pair
    headings = [line for line in build_markdown(report).splitlines() if line.startswith("### ")]
    assert len(headings) == 2
    assert sum(h.endswith(", and 2 more items with this answer file") for h in headings) == 1
