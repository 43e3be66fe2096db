"""End to end through the real CLI: ingest the example corpus and the example benchmark (task
layout, with planted exact, near, renamed and contained copies, clean and name-only tasks; see
examples/benchmark/PLANTED.json), dedup, and check every planted leak is found and nothing
clean is flagged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemas import BenchmarkItem, Decision, KernelUnit, read_records
from tests.conftest import EXAMPLES, run_curate

PLANTED = json.loads((EXAMPLES / "benchmark" / "PLANTED.json").read_text())
CODE_LEAKS = ("exact", "near", "renamed", "contained")


def in_task(path: str, task: str) -> bool:
    return f"tasks/{task}/" in path + "/"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("e2e") / "ws"
    for args in (
        ["ingest", str(EXAMPLES / "corpus")],
        ["ingest", str(EXAMPLES / "benchmark"), "--benchmark"],
    ):
        done = run_curate(*args, "--workspace", str(ws))
        assert done.returncode == 0, done.stderr
    return ws


def dedup(
    ws: Path, *options: str
) -> tuple[dict[str, tuple[KernelUnit, Decision]], dict, dict[str, BenchmarkItem]]:
    done = run_curate("dedup", "--workspace", str(ws), *options)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("dedup: ") and done.stdout.count("\n") == 1
    units = read_records(ws / "units.parquet", KernelUnit)
    decisions = read_records(ws / "decisions.parquet", Decision)
    assert [u.unit_id for u in units] == [d.unit_id for d in decisions]
    items = {i.item_id: i for i in read_records(ws / "benchmark.parquet", BenchmarkItem)}
    report = json.loads((ws / "reports" / "leakage.json").read_text())
    return {u.unit_id: (u, d) for u, d in zip(units, decisions, strict=True)}, report, items


def units_at(rows: dict, corpus_path: str) -> list[tuple[KernelUnit, Decision]]:
    found = [row for row in rows.values() if row[0].path.endswith(corpus_path)]
    assert found, f"ingest produced no unit for {corpus_path}"
    return found


def check_leaks(rows: dict, report: dict, items: dict, kinds: tuple[str, ...]) -> None:
    for case in PLANTED:
        if case["kind"] in kinds:
            for unit, decision in units_at(rows, case["corpus_path"]):
                assert decision.decision == "leak", (case, decision)
                assert in_task(items[decision.match_id].path, case["task"]), (case, decision)
                assert decision.score >= 0.7 and decision.method in ("exact", "jaccard", "containment")
                assert any(
                    lk["unit_id"] == unit.unit_id and lk["ranges"] and lk["excerpt"] for lk in report["leaks"]
                )
    for case in PLANTED:
        if case["kind"] in ("clean", "name-only"):
            assert [lk for lk in report["leaks"] if in_task(lk["answer_path"], case["task"])] == [], case
            if case["corpus_path"]:
                assert all(d.decision != "leak" for _, d in units_at(rows, case["corpus_path"])), case


def test_every_planted_leak_is_found_and_nothing_clean_is_flagged(workspace: Path) -> None:
    rows, report, items = dedup(workspace, "--abstract-identifiers")
    check_leaks(rows, report, items, CODE_LEAKS)
    (name_case,) = [c for c in PLANTED if c["kind"] == "name-only"]
    for _, decision in units_at(rows, name_case["corpus_path"]):
        assert decision.name_match == "MaxPool2d" and decision.decision != "leak"
    assert sum(d.decision == "leak" for _, d in rows.values()) == report["counts"]["leaks"]
    markdown = (workspace / "reports" / "leakage.md").read_text()
    assert "## Per benchmark and level" in markdown and "| benchmark | 3 |" in markdown


def test_without_abstraction_exact_near_and_contained_copies_are_found(workspace: Path) -> None:
    rows, report, items = dedup(workspace)
    check_leaks(rows, report, items, ("exact", "near", "contained"))


def test_audit_of_the_raw_corpus_against_the_benchmark_fails_the_gate(
    workspace: Path, tmp_path: Path
) -> None:
    done = run_curate("audit", str(EXAMPLES / "corpus"), str(workspace), "--report-dir", str(tmp_path / "r"))
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith("audit LEAK:")
    leaked = {lk["task_name"] for lk in json.loads((tmp_path / "r" / "leakage.json").read_text())["leaks"]}
    assert {"AddCustom", "MseLoss"} <= leaked
