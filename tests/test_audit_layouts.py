"""`curate audit` reads a benchmark folder the way `curate ingest --benchmark` does: a task tree
gives one item per task (with its level and category), question stubs and validation files are
never items, a kernel folder names the files it does not compare (or compares them all whole on
request), and the example benchmark audited as a plain folder yields exactly the planted leaks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from parsers.benchmark import benchmark_layout, is_answer_candidate
from tests.conftest import EXAMPLES, run_curate, write_tree

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


# A kernel folder as people publish one: a kernel with its tiling header, and a host program
# whose kernel sits in a header the folder lacks (as in cann-samples' matmul recipes).
KERNEL_FOLDER = {
    "add/add_tiling.h": """
        #pragma once
        struct AddTiling { uint32_t totalLength; uint32_t tileNum; };
    """,
    "add/add.cpp": """
        #include "kernel_operator.h"
        #include "add_tiling.h"
        extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
        {
            AscendC::GlobalTensor<half> xGm;
            xGm.SetGlobalBuffer((__gm__ half *)x, 1024);
        }
    """,
    "matmul_mx/main.asc": """
        #include "include/kernel/matmul_mx_kernel.h"
        static void PrintUsage(const char *program)
        {
            std::cerr << "Usage: " << program << " m k n" << std::endl;
        }
        int main(int argc, char *argv[])
        {
            if (argc < 4) {
                PrintUsage(argv[0]);
                return 1;
            }
            int m = std::stoi(argv[1]);
            int k = std::stoi(argv[2]);
            int n = std::stoi(argv[3]);
            aclrtStream stream;
            CHECK_ACL(aclInit(nullptr));
            CHECK_ACL(aclrtSetDevice(0));
            CHECK_ACL(aclrtCreateStream(&stream));
            uint8_t *deviceA = nullptr;
            uint8_t *deviceB = nullptr;
            uint8_t *deviceC = nullptr;
            CHECK_ACL(aclrtMalloc((void **)&deviceA, m * k, ACL_MEM_MALLOC_HUGE_FIRST));
            CHECK_ACL(aclrtMalloc((void **)&deviceB, k * n, ACL_MEM_MALLOC_HUGE_FIRST));
            CHECK_ACL(aclrtMalloc((void **)&deviceC, m * n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
            uint32_t blockDim = (m + 127) / 128;
            Kernel::MatmulMxKernel<<<blockDim, nullptr, stream>>>(deviceA, deviceB, deviceC, m, k, n);
            CHECK_ACL(aclrtSynchronizeStream(stream));
            CHECK_ACL(aclrtFree(deviceA));
            CHECK_ACL(aclrtFree(deviceB));
            CHECK_ACL(aclrtFree(deviceC));
            CHECK_ACL(aclrtDestroyStream(stream));
            CHECK_ACL(aclrtResetDevice(0));
            CHECK_ACL(aclFinalize());
            return 0;
        }
    """,
}


def audit_host_copy(tmp_path: Path, bench: Path, *options: str) -> tuple[int, str, dict]:
    """Audit an Alpaca file whose one row copies the host program (a little renamed) after some
    reasoning; (exit status, stdout, leakage.json)."""
    host = (bench / "matmul_mx" / "main.asc").read_text().replace("deviceA", "bufferA")
    rows = [
        {"instruction": "Write a matmul host", "output": f"First set up the device.\n\n```cpp\n{host}```\n"},
        {"instruction": "Say hello", "output": "int main() { return 0; }"},
    ]
    train = tmp_path / "train.jsonl"
    train.write_text("".join(json.dumps(r) + "\n" for r in rows))
    reports = tmp_path / ("reports" + "".join(options))
    done = run_curate(
        "audit", str(train), str(bench), "--train-code-column", "output", "--code-from", "auto",
        "--report-dir", str(reports), *options,
    )  # fmt: skip
    return done.returncode, done.stdout + done.stderr, json.loads((reports / "leakage.json").read_text())


def test_kernel_folder_names_the_files_it_does_not_compare(tmp_path: Path) -> None:
    bench = write_tree(tmp_path / "bench", KERNEL_FOLDER)
    ingested = run_curate("ingest", str(bench), "--benchmark", "--workspace", str(tmp_path / "ws"))
    assert ingested.returncode == 0, ingested.stderr
    assert "1 benchmark items (kernels), 1 code file left out" in ingested.stdout

    # One item per kernel (its header assembled into it); the host program is not an answer, and
    # the report says so instead of dropping it in silence.
    status, out, report = audit_host_copy(tmp_path, bench)
    assert status == 0, out
    assert "1 test folder file not compared" in out
    assert report["counts"]["test_items"] == 1
    assert report["test_left_out"] == ["matmul_mx/main.asc"]
    markdown = (tmp_path / "reports" / "leakage.md").read_text()
    assert (
        "Not compared: 1 code file of the test folder with no kernel of its own" in markdown
        and "`matmul_mx/main.asc`" in markdown
    )

    # Asked to compare every file whole, the audit finds the copy.
    status, out, report = audit_host_copy(tmp_path, bench, "--test-code-from", "text")
    assert status == 1, out
    assert report["counts"]["test_items"] == 3 and report["test_left_out"] == []
    assert {(lk["answer_path"], lk["row_id"]) for lk in report["leaks"]} == {("matmul_mx/main.asc", "0")}
