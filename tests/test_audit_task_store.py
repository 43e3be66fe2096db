"""`curate audit` keeps task-level matches out of memory (`curate.report.task_store`): each
shard's matches are reduced to their records on disk as the shard arrives, and only the
strongest few keep their unit (code). The report must still count every match and name each
one, in the order and with the records the in-memory path (`task_records`) gives. Fixtures are
written for these tests."""

from __future__ import annotations

import json

import pytest

import curate.report.task_leaks as task_leaks
import curate.report.task_store as task_store
from curate.report.task_leaks import task_records
from curate.report.task_store import TaskMatchStore
from curate.sources import iter_corpus, load_benchmark
from curate.tasklevel import task_index_for
from dedup.config import DedupConfig
from dedup.decide import audit_shard, bench_index, merge_shards, task_counts
from dedup.tasks import match_units
from tests.test_dedup_helpers import run_cli
from tests.test_tasklevel import CONV_MIN_TANH, NEUTRAL_FUSED, _items, _unit, _write

RELU = '''import torch
import torch.nn as nn

class Model(nn.Module):
    """Applies a ReLU activation."""
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)

batch_size = 16
dim = 16384

def get_inputs():
    return [torch.randn(batch_size, dim)]

def get_init_inputs():
    return []
'''
DETAILED = 3  # detailed records, lowered so that a small corpus crosses the boundary


def _relu_kernel(i: int) -> str:
    """A single-op kernel that solves `relu`; its length (a shared number or not) varies the score."""
    return (
        f'extern "C" __global__ __aicore__ void k{i}(GM_ADDR x, GM_ADDR z) {{\n'
        f"  AscendC::Relu(a, a, {i * 8});\n}}"
    )


def _row(i: int) -> str:
    code = NEUTRAL_FUSED if i % 7 == 3 else _relu_kernel(i)
    text = f"Row {i}: the kernel.\n\n```cpp\n{code}\n```\n"
    return json.dumps({"instruction": f"write kernel {i}", "output": text})


@pytest.fixture
def few_detailed(monkeypatch):
    monkeypatch.setattr(task_leaks, "DETAILED_RECORDS", DETAILED)
    monkeypatch.setattr(task_store, "DETAILED_RECORDS", DETAILED)


def test_streamed_audit_reports_every_match_as_the_in_memory_path_does(
    tmp_path, monkeypatch, capsys, few_detailed
) -> None:
    bench = _write(tmp_path / "reference" / "fuse", {"conv2d_min_tanh_tanh.py": CONV_MIN_TANH})
    _write(tmp_path / "reference" / "activation", {"relu.py": RELU})
    train = tmp_path / "train.jsonl"
    train.write_text("".join(_row(i) + "\n" for i in range(40)))
    args = ["--train-code-column", "output", "--code-from", "auto", "--shard-rows", "6"]
    status, out, err = run_cli(
        monkeypatch, capsys, "audit", train, bench.parent, "--report-dir", tmp_path / "r", *args
    )
    assert status == 1, (out, err)
    report = json.loads((tmp_path / "r" / "leakage.json").read_text())

    # The same matches, found and ordered with every unit in memory.
    items = load_benchmark(str(bench.parent)).items
    index = task_index_for(items)
    assert index is not None
    units = [u for batch in iter_corpus(str(train), code_column="output", code_from="auto") for u in batch]
    matches = match_units(units, index)
    expected = json.loads(json.dumps(task_records(matches, units, items, index)))
    assert len(matches) == 40, "every row solves a task"
    assert report["task_matches"] == expected
    assert {r["unit_id"] for r in report["task_matches"]} == {u.unit_id for u in units}
    assert ["task" in r for r in report["task_matches"]] == [True] * DETAILED + [False] * (40 - DETAILED)
    assert report["task_matches"][0]["level"] == "fused", "a fused match from a later shard leads"
    counts = {k: v for k, v in report["counts"].items() if k.startswith("task_")}
    assert counts == task_counts(matches) and counts["task_matches_fused"] == 6
    markdown = (tmp_path / "r" / "leakage.md").read_text()
    assert "40 training documents solve 2 benchmark tasks" in markdown
    assert markdown.count("### ") == DETAILED


def test_the_store_holds_a_bounded_number_of_units_whatever_the_matches(few_detailed) -> None:
    items = _items({"relu": RELU, "conv2d_min_tanh_tanh": CONV_MIN_TANH})
    index = task_index_for(items)
    assert index is not None
    units = [_unit(f"r{i:03}.cpp", NEUTRAL_FUSED if i % 7 == 3 else _relu_kernel(i)) for i in range(60)]
    every = match_units(units, index)
    assert len(every) == 60
    expected = json.loads(json.dumps(task_records(every, units, items, index)))
    store = TaskMatchStore(items, index)
    try:
        shard = 5
        for start in range(0, len(units), shard):
            part = units[start : start + shard]
            store.add(match_units(part, index), part)
            assert store.units_held() <= 2 * DETAILED + shard
        assert store.counts() == task_counts(every)
        records = [json.loads(r) if isinstance(r, str) else r for r in store.records()]
        assert store.units_held() == 0, "the detailed records are made: no unit is needed any more"
    finally:
        store.close()
    assert records == expected


def test_merge_keeps_only_the_units_copies_and_names_involve_when_tasks_go_to_a_sink() -> None:
    items = _items({"relu": RELU})
    units = [_unit(f"r{i}.cpp", _relu_kernel(i)) for i in range(8)]
    cfg = DedupConfig()
    index = bench_index(items, cfg, task_index_for(items))
    received: list[tuple[int, int]] = []

    def sink(matches, shard_units) -> None:
        received.extend((len(shard_units), m.unit) for m in matches)

    shards = [audit_shard(units[:5], index, cfg), audit_shard(units[5:], index, cfg)]
    kept, findings, counts = merge_shards(shards, items, index, tasks_to=sink)
    assert kept == [] and findings.tasks == [] and counts["train_documents"] == 8
    assert received == [(5, u) for u in range(5)] + [(3, u) for u in range(3)]


def test_a_judge_asked_shard_by_shard_keeps_one_journal_and_one_set_of_counters(
    tmp_path, monkeypatch, capsys
) -> None:
    from tests.servers.openai_server import OpenAIServer
    from tests.test_tasklevel_judge import PLAIN_CONV, SIBLINGS, _says_yes_to

    bench = _write(
        tmp_path / "reference" / "convolution", {f"{name}.py": text for name, text in SIBLINGS.items()}
    )
    train = _write(
        tmp_path / "train", {f"conv{i}.cpp": PLAIN_CONV.replace("Add(", f"Add{i}(") for i in range(3)}
    )
    runs = []
    with OpenAIServer() as server:
        server.script = _says_yes_to("# square input")
        for run in ("first", "again"):
            # The journal is the report directory's judge.sqlite: the second run reads it.
            args = ["--judge-url", server.url, "--shard-rows", "1", "--report-dir", tmp_path / "r"]
            status, out, err = run_cli(monkeypatch, capsys, "audit", train, bench.parent, *args)
            assert status == 1 and "3 solve a test task" in out, (run, out, err)
            runs.append(json.loads((tmp_path / "r" / "leakage.json").read_text())["counts"])
    first, again = runs
    assert first["task_matches_by_judge"] == 3 and first["judge_cached"] == 0
    assert first["judge_requests"] >= 3, "each shard's document was asked about"
    assert again["judge_requests"] == 0 and again["judge_cached"] == first["judge_requests"]
    assert again["task_matches_by_judge"] == 3
