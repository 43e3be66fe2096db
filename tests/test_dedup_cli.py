"""`curate dedup` on a workspace: decisions, reports, meta.json, configuration, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemas import BenchmarkItem, Decision, KernelUnit, read_records, write_records
from tests.test_dedup_helpers import elementwise_kernel, item, run_cli, unit, unrelated_kernel

COPY_KERNEL = """extern "C" __global__ __aicore__ void copy(GM_ADDR src, GM_ADDR dst, uint64_t bytes)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> staging;
    pipe.InitBuffer(staging, 4096);
    AscendC::LocalTensor<uint8_t> tmp = staging.Get<uint8_t>();
    for (uint64_t off = 0; off < bytes; off += 4096) {
        AscendC::DataCopyPad(tmp, src_gm[off], {1, 4096, 0, 0, 0}, {false, 0, 0, 0});
        AscendC::DataCopyPad(dst_gm[off], tmp, {1, 4096, 0, 0, 0});
    }
}
"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    units = [
        unit("leaky", "// vendor copy\n" + elementwise_kernel(), op="add_custom"),
        unit("dup-a", unrelated_kernel()),
        unit("dup-b", unrelated_kernel() + "void tail(int q) { q += 7; }\n"),
        unit("clean", COPY_KERNEL, op="copy"),
    ]
    write_records(ws / "units.parquet", KernelUnit, units)
    write_records(
        ws / "benchmark.parquet",
        BenchmarkItem,
        [item("b1", [elementwise_kernel()], task="AddCustom", level=1)],
    )
    return ws


def test_dedup_writes_decisions_reports_and_meta(workspace: Path, monkeypatch, capsys) -> None:
    status, out, err = run_cli(monkeypatch, capsys, "dedup", "--workspace", workspace)
    assert status == 0, err
    assert out.count("\n") == 1 and out.startswith(
        "dedup: 4 units: 2 kept, 1 duplicate (0 exact, 1 near), 1 leak"
    )
    decisions = {d.unit_id: d for d in read_records(workspace / "decisions.parquet", Decision)}
    assert decisions["leaky"].decision == "leak" and decisions["leaky"].method == "exact"
    assert decisions["leaky"].name_match == "AddCustom"
    assert {decisions["dup-a"].decision, decisions["dup-b"].decision} == {"keep", "duplicate"}
    report = json.loads((workspace / "reports" / "leakage.json").read_text())
    (leak,) = report["leaks"]
    assert (
        leak["unit_id"] == "leaky"
        and leak["item_id"] == "b1"
        and leak["answer_path"].endswith("answer/0/op_kernel/kernel.cpp")
    )
    assert leak["unit_path"] == "ops/leaky.cpp" and leak["score"] == 1.0
    assert leak["overlapping_line_count"] > 40
    # Bounded evidence: the shared range on both sides (one line apart) and three quoted lines.
    (b0, b1, c0, c1), *_ = leak["ranges"]
    assert (c0, c1) == (b0 + 1, b1 + 1) and b1 - b0 + 1 >= 40
    assert (
        len(leak["excerpt"]) == 3
        and leak["excerpt"][0]["corpus_line"] == leak["excerpt"][0]["benchmark_line"] + 1
    )
    assert "overlapping_lines" not in leak and leak["kernel_name"]
    markdown = (workspace / "reports" / "leakage.md").read_text()
    assert "| bench | 1 | 1 | 1 | 1 | 1 | 0 |" in markdown and "class KernelAdd {" in markdown
    assert f"`ops/leaky.cpp` kernel `{leak['kernel_name']}` matches" in markdown
    assert f"benchmark {b0}-{b1} = corpus {c0}-{c1}" in markdown
    run = json.loads((workspace / "meta.json").read_text())["runs"][-1]
    assert run["stage"] == "dedup" and run["config"]["threshold"] == 0.7 and run["counts"]["leaks"] == 1


def test_options_config_file_and_json(workspace: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    config = tmp_path / "curate.toml"
    config.write_text("[dedup]\nthreshold = 0.95\nnum-perm = 64\n")
    status, out, _ = run_cli(
        monkeypatch, capsys, "dedup", "-w", workspace, "--config", config, "--ngram", "4", "--json"
    )
    assert status == 0
    assert json.loads(out)["counts"]["units"] == 4
    params = json.loads((workspace / "meta.json").read_text())["runs"][-1]["config"]
    assert (params["threshold"], params["num_perm"], params["ngram"]) == (0.95, 64, 4)


def test_without_benchmark_says_so(workspace: Path, monkeypatch, capsys) -> None:
    (workspace / "benchmark.parquet").unlink()
    status, out, _ = run_cli(monkeypatch, capsys, "dedup", "-w", workspace)
    assert status == 0 and "no benchmark ingested: near-duplicate removal only" in out


@pytest.mark.parametrize(
    ("prepare", "args", "message"),
    [
        ("none", [], "units.parquet does not exist: run `curate ingest"),
        ("empty-units", [], "has no units"),
        ("empty-bench", [], "benchmark.parquet has no items"),
        ("ok", ["--threshold", "1.5"], "threshold must be in (0, 1]"),
        ("ok", ["--num-perm", "0"], "num_perm must be between"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    workspace: Path, tmp_path: Path, monkeypatch, capsys, prepare, args, message
) -> None:
    target = workspace
    if prepare == "none":
        target = tmp_path / "nothing"
    elif prepare == "empty-units":
        write_records(workspace / "units.parquet", KernelUnit, [])
    elif prepare == "empty-bench":
        write_records(workspace / "benchmark.parquet", BenchmarkItem, [])
    status, _out, err = run_cli(monkeypatch, capsys, "dedup", "-w", target, *args)
    assert status == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not (workspace / "decisions.parquet").exists()
