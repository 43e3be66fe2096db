"""`curate audit TRAIN TEST`: exit 0 clean, 1 leak, 2 bad input; reports written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemas import BenchmarkItem, KernelUnit, write_records
from tests.test_dedup_helpers import elementwise_kernel, item, run_cli, unit, unrelated_kernel


@pytest.fixture
def sides(tmp_path: Path) -> dict[str, Path]:
    train = tmp_path / "train"
    train.mkdir()
    (train / "sum_squares.cpp").write_text(unrelated_kernel())
    (train / "vendor_add.cpp").write_text("// copied\n" + elementwise_kernel())
    clean_train = tmp_path / "clean-train"
    clean_train.mkdir()
    (clean_train / "sum_squares.cpp").write_text(unrelated_kernel())
    bench = tmp_path / "bench.jsonl"
    bench.write_text(json.dumps({"id": "AddCustom", "answer": elementwise_kernel(), "level": 1}) + "\n")
    return {"train": train, "clean": clean_train, "bench": bench, "reports": tmp_path / "reports"}


def audit(monkeypatch, capsys, *args):
    return run_cli(monkeypatch, capsys, "audit", *args)


def test_leak_exits_1_with_reports(sides, monkeypatch, capsys) -> None:
    status, out, err = audit(
        monkeypatch,
        capsys,
        sides["train"],
        sides["bench"],
        "--test-code-column",
        "answer",
        "--test-id-column",
        "id",
        "--report-dir",
        sides["reports"],
    )
    assert status == 1, err
    assert out.startswith("audit LEAK: 1 of 2 training documents contain 1 of 1 test items")
    report = json.loads((sides["reports"] / "leakage.json").read_text())
    (leak,) = report["leaks"]
    assert (leak["unit_path"], leak["task_name"], leak["method"]) == ("vendor_add.cpp", "AddCustom", "exact")
    assert "AddCustom" in (sides["reports"] / "leakage.md").read_text()


def test_clean_exits_0(sides, monkeypatch, capsys) -> None:
    status, out, _ = audit(
        monkeypatch,
        capsys,
        sides["clean"],
        sides["bench"],
        "--test-code-column",
        "answer",
        "--report-dir",
        sides["reports"],
    )
    assert status == 0 and out.startswith("audit clean: 0 of 1")
    assert json.loads((sides["reports"] / "leakage.json").read_text())["leaks"] == []


def test_threshold_option_and_json(sides, monkeypatch, capsys) -> None:
    (sides["clean"] / "half.cpp").write_text("\n".join(elementwise_kernel().split("\n")[:30]))
    common = [
        sides["clean"],
        sides["bench"],
        "--test-code-column",
        "answer",
        "--report-dir",
        sides["reports"],
        "--json",
    ]
    status, out, _ = audit(monkeypatch, capsys, *common)
    assert status == 0 and json.loads(out)["counts"]["leaks"] == 0
    status, out, _ = audit(monkeypatch, capsys, *common, "--threshold", "0.3", "--containment", "0.3")
    assert status == 1 and json.loads(out)["leaks"][0]["unit_path"] == "half.cpp"


def test_workspace_as_train_side(sides, tmp_path, monkeypatch, capsys) -> None:
    ws = tmp_path / "ws"
    write_records(ws / "units.parquet", KernelUnit, [unit("u1", elementwise_kernel())])
    status, _, _ = audit(
        monkeypatch,
        capsys,
        ws,
        sides["bench"],
        "--test-code-column",
        "answer",
        "--report-dir",
        sides["reports"],
    )
    assert status == 1


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("empty-bench", "TEST: "),
        ("no-code-column", "no column 'code'"),
        ("missing-train", "TRAIN: "),
        ("empty-dir", "no code files"),
        ("bad-threshold", "threshold must be in (0, 1]"),
        ("no-test-code", "has kernel code (a PyTorch-only benchmark?)"),
        ("no-train-code", "TRAIN: no document"),
    ],
)
def test_bad_input_exits_2_with_one_line(sides, tmp_path, monkeypatch, capsys, case, message) -> None:
    train, test, extra = str(sides["train"]), str(sides["bench"]), ["--test-code-column", "answer"]
    if case == "empty-bench":
        empty = tmp_path / "empty.jsonl"
        empty.write_text("")
        test = str(empty)
    elif case == "no-code-column":
        extra = []
    elif case == "missing-train":
        train = str(tmp_path / "does-not-exist")
    elif case == "empty-dir":
        (tmp_path / "nothing").mkdir()
        train = str(tmp_path / "nothing")
    elif case == "bad-threshold":
        extra.extend(["--threshold", "0"])
    elif case == "no-test-code":
        ws = tmp_path / "pt"
        write_records(ws / "benchmark.parquet", BenchmarkItem, [item("r", [], task="19_ReLU")])
        test = str(ws)
    elif case == "no-train-code":
        comments = tmp_path / "comments"
        comments.mkdir()
        (comments / "only.h").write_text("// nothing but a comment\n")
        train = str(comments)
    status, _out, err = audit(monkeypatch, capsys, train, test, *extra, "--report-dir", sides["reports"])
    assert status == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (sides["reports"] / "leakage.json").exists()


def test_report_goes_into_the_training_workspace_not_the_current_directory(
    sides, tmp_path, monkeypatch, capsys
) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    write_records(ws / "units.parquet", KernelUnit, [unit("u1", elementwise_kernel(), op="add_custom")])
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    status, out, err = audit(monkeypatch, capsys, ws, sides["bench"], "--test-code-column", "answer")
    assert status == 1, err
    assert (ws / "reports" / "audit" / "leakage.md").is_file()
    assert f"report: {ws / 'reports' / 'audit' / 'leakage.md'}" in out
    assert list(here.iterdir()) == []  # nothing written where the command ran


def test_a_training_side_that_is_no_workspace_needs_report_dir(sides, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    before = sorted(tmp_path.iterdir())
    status, out, err = audit(
        monkeypatch, capsys, sides["train"], sides["bench"], "--test-code-column", "answer"
    )
    assert status == 2 and out == ""
    assert err.startswith("error: --report-dir DIR") and len(err.strip().splitlines()) == 1
    assert sorted(tmp_path.iterdir()) == before
