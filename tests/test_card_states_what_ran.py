"""The dataset card and the HTML report state only what ran: a dedup without a benchmark is no
decontamination (no claim that benchmark answers were removed, no "0 removed as benchmark
leaks"); a dedup against benchmarks names them and the task-level policy it ran with."""

from __future__ import annotations

from pathlib import Path

from curate.leakcheck import last_leak_check
from curate.publish import BuildConfig, PushConfig
from curate.report.gather import gather
from curate.report.page import render
from curate.stages.build import run_build
from curate.stages.push import run_push
from curate.workspace import Workspace
from schemas.runs import DedupRun
from tests.test_publish_workspace import Spec, make_workspace

KEPT = [
    Spec("AddCustom", "add_custom", "operators/add_custom/op_kernel/add_custom.cpp"),
    Spec("SubCustom", "sub_custom", "operators/sub_custom/op_kernel/sub_custom.cpp", api="Sub"),
    Spec("MulCustom", "mul_custom", "operators/mul_custom/op_kernel/mul_custom.cpp", decision="duplicate"),
]


def card_of(ws: Workspace, out: Path) -> str:
    run_build(ws, BuildConfig())
    config = PushConfig(to_dir=str(out), allow_license=["CANN-2.0", "Apache-2.0"])
    return run_push(ws, config, rerun="curate push").content.texts["README.md"]


def dedup_without_benchmark(ws: Workspace) -> None:
    counts = {"units": 3, "benchmark_items": 0, "kept": 2, "duplicates": 1, "leaks": 0}
    ws.record_run(DedupRun(config={"threshold": 0.7, "task_leaks": "flag"}, counts=counts, benchmarks=[]))
    (ws.reports / "leakage.json").unlink()


def test_a_card_without_benchmark_claims_no_decontamination(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws", KEPT)
    dedup_without_benchmark(ws)
    card = card_of(ws, tmp_path / "out")
    assert "test answers were removed" not in card and "matching a benchmark" not in card
    assert "removed as benchmark leaks" not in card
    assert "no leakage check ran" in card and "no decontamination" in card
    assert "Decontamination covers only the benchmarks named above" not in card
    assert "Every leak, with both sides" not in card
    assert "1 removed as near-duplicates" in card


def test_a_card_after_a_benchmark_dedup_names_it_and_the_task_policy(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path / "ws", [*KEPT[:2], Spec("DivCustom", "div", "ops/div.cpp", decision="leak")]
    )
    counts = {"units": 3, "benchmark_items": 7, "leaks": 2, "task_matches": 1, "task_leaks_dropped": 1}
    ws.record_run(DedupRun(config={"task_leaks": "drop"}, counts=counts, benchmarks=["bench-a", "bench-b"]))
    card = card_of(ws, tmp_path / "out")
    assert "units copying a test answer of bench-a, bench-b and units that solve one of its tasks" in card
    assert "Checked against bench-a, bench-b (7 items)" in card
    assert "`--task-leaks drop`): 1 unit solves a benchmark task with other code; 1 removed as leaks." in card
    assert "1 removed as benchmark leaks" in card


def test_the_task_policy_flag_says_flagged_not_removed(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws", KEPT)
    counts = {"units": 3, "benchmark_items": 1, "leaks": 0, "task_matches": 2}
    ws.record_run(DedupRun(config={"task_leaks": "flag"}, counts=counts, benchmarks=["b"]))
    check = last_leak_check(ws.runs())
    assert check is not None and check.ran and check.benchmarks == ["b"]
    assert check.task_sentence() == (
        "Task-level matches (`--task-leaks flag`): 2 units solve a benchmark task with other code; "
        "flagged in the leakage report, not removed."
    )
    card = card_of(ws, tmp_path / "out")
    assert "and units that solve one of its tasks" not in card and check.task_sentence() in card


def test_the_report_says_no_leakage_check_ran(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws", KEPT)
    dedup_without_benchmark(ws)
    data = gather(ws)
    dedup_step = next(s for s in data.funnel if s.name == "kept by dedup")
    assert dedup_step.note == "no benchmark compared: duplicates only, no leakage check"
    assert any("no leakage check ran" in n for n in data.notes)
    assert '<section id="leaks">' not in render(data, {})


def test_the_report_leak_section_names_the_benchmarks_and_counts_what_it_lists() -> None:
    from curate.leakcheck import LeakCheck
    from curate.report.gather import ReportData

    match = {"unit_path": "a.cpp", "op_name": "add", "benchmark": "b", "task_name": "Add", "level": 1}
    data = ReportData(
        "ws",
        "now",
        leak_check=LeakCheck(True, ["bench-a"], 3, task_policy="flag", task_matches=1),
        name_matches=[match],
        name_match_total=3,
    )
    page = render(data, {})
    assert "Compared with bench-a (3 items)." in page
    assert "Task-level matches (--task-leaks flag): 1 unit solves a benchmark task with other code" in page
    assert "Op-name matches (3; the first 1 listed)" in page
