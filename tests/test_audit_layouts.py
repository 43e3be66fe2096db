"""`curate audit` reads a benchmark folder the way `curate ingest --benchmark` does: a task tree
gives one item per task (with its level and category), question stubs and validation files are
never items, and the example benchmark audited as a plain folder yields exactly the planted leaks."""

from __future__ import annotations

import json

import pytest

from parsers.benchmark import benchmark_layout, is_answer_candidate
from tests.conftest import EXAMPLES, run_curate

PLANTED = json.loads((EXAMPLES / "benchmark" / "PLANTED.json").read_text())


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory) -> dict:
    reports = tmp_path_factory.mktemp("audit")
    done = run_curate(
        "audit",
        str(EXAMPLES / "corpus"),
        str(EXAMPLES / "benchmark"),
        "--abstract-identifiers",
        "--report-dir",
        str(reports),
        "--json",
    )
    assert done.returncode == 1, done.stderr  # the planted leaks are found
    return json.loads((reports / "leakage.json").read_text())


def task_of(path: str) -> str:
    return path.split("tasks/", 1)[1].split("/answer/")[0]


def test_plain_benchmark_folder_gives_exactly_the_planted_leaks(audited: dict) -> None:
    found = {(task_of(lk["answer_path"]), lk["unit_path"]) for lk in audited["leaks"]}
    planted = {(c["task"], c["corpus_path"]) for c in PLANTED if c["kind"] not in ("clean", "name-only")}
    assert found == planted


def test_name_only_task_is_a_name_match_not_a_leak(audited: dict) -> None:
    (case,) = [c for c in PLANTED if c["kind"] == "name-only"]
    task = case["task"].rsplit("/", 1)[1]
    assert task not in {lk["task_name"] for lk in audited["leaks"]}
    assert task in {m["task_name"] for m in audited["name_matches"]}


def test_task_tree_gives_one_item_per_task_with_level_and_category(audited: dict) -> None:
    tasks = {c["task"] for c in PLANTED}
    assert audited["counts"]["test_items"] == len(tasks)
    levels = {row["level"]: row["items"] for row in audited["per_benchmark_level"]}
    assert levels == {n: sum(t.startswith(f"level{n}/") for t in tasks) for n in (1, 2, 3)}
    for leak in audited["leaks"]:
        level = task_of(leak["answer_path"]).split("/")[0]
        assert leak["level"] == int(level.removeprefix("level"))
        assert leak["category"] != "other", leak


def test_layout_detection_ignores_question_stubs_and_validation() -> None:
    task = "tasks/level1/Elementwise/Add"
    assert benchmark_layout([f"{task}/question/op_kernel/add.cpp", f"{task}/answer/0/op_kernel/add.cpp"]) == (
        "task-layout"
    )
    assert benchmark_layout([f"{task}/question/op_kernel/add.cpp"]) == ""
    assert benchmark_layout(["kernels/add.cpp"]) == "kernels"
    assert not is_answer_candidate(f"{task}/validation/ref.cpp")
    assert is_answer_candidate(f"{task}/answer/0/op_kernel/add.cpp")
