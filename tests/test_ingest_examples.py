"""The bundled example corpus and benchmarks through the real CLI: every expected unit is found
with the labels a human gave it (examples/corpus/expected.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from tests.conftest import EXAMPLES, run_curate

EXPECTED = json.loads((EXAMPLES / "corpus" / "expected.json").read_text())
PREFIX = "examples/corpus/" if (EXAMPLES.parent / ".git").exists() else ""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("ws")
    done = run_curate("ingest", str(EXAMPLES / "corpus"), "-w", str(ws), "--name", "examples")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().startswith("ingest examples: ")
    return ws


@pytest.fixture(scope="module")
def units(workspace: Path) -> dict[tuple[str, str], dict]:
    rows = pq.read_table(workspace / "units.parquet").to_pylist()
    return {(r["path"], r["kernel_name"]): r for r in rows}


def _key(entry: dict) -> tuple[str, str]:
    # Units are recorded relative to the repository root (this checkout), expected.json relative
    # to examples/corpus; a copy outside git records paths relative to examples/corpus itself.
    return (PREFIX + entry["path"], entry["kernel_name"])


def test_every_expected_entry_is_a_unit_and_nothing_else(units):
    assert sorted(units) == sorted(_key(e) for e in EXPECTED)


@pytest.mark.parametrize("entry", EXPECTED, ids=lambda e: f"{e['path']}:{e['kernel_name']}")
def test_unit_matches_its_expected_labels(units, entry):
    unit = units[_key(entry)]
    for column in ("op_name", "layout", "category", "level", "core_type", "license"):
        assert unit[column] == entry[column], column
    # The parser sees the #if branch for arch 220 only; expected lists may cover both branches.
    assert set(unit["apis"]) <= set(entry["apis"])
    assert len(unit["apis"]) >= 0.8 * len(entry["apis"])
    assert unit["code"] and unit["kernel_name"] and unit["op_name"]


def test_examples_cover_every_category_level_layout_and_both_licence_cases(units):
    from parsers.classify import CATEGORIES

    values = list(units.values())
    assert {u["category"] for u in values} == set(CATEGORIES)
    assert {u["level"] for u in values} == {1, 2, 3}
    assert {"msopgen", "direct-invoke", "single-source", "catlass"} <= {u["layout"] for u in values}
    licences = {u["license"] for u in values}
    assert {"CANN-2.0", "Apache-2.0", "unknown"} <= licences
    assert len(values) >= 25


def test_stats_json_counts_the_workspace(workspace, units):
    done = run_curate("stats", "-w", str(workspace), "--json")
    assert done.returncode == 0, done.stderr
    stats = json.loads(done.stdout)
    assert stats["units"] == len(units)
    assert sum(stats["by_category"].values()) == len(units)
    assert stats["by_source"] == {"examples": len(units)}
    assert set(stats["by_parse_status"]) <= {"full", "partial"}
    table = run_curate("stats", "-w", str(workspace))
    assert table.returncode == 0 and "by category" in table.stdout
    brief = run_curate("stats", "-w", str(workspace), "--brief")
    expected = f"{workspace}: {len(units)} units; {stats.get('benchmark_items', 0)} benchmark items"
    assert brief.stdout.strip() == expected


def test_stats_on_an_empty_workspace_is_a_clear_error(tmp_path):
    done = run_curate("stats", "-w", str(tmp_path))
    assert done.returncode == 2 and "run `curate ingest" in done.stderr


def test_benchmark_task_layout_becomes_one_item_per_task(workspace):
    done = run_curate(
        "ingest", str(EXAMPLES / "benchmark"), "-w", str(workspace), "--benchmark", "--name", "bench"
    )
    assert done.returncode == 0, done.stderr
    items = [
        r for r in pq.read_table(workspace / "benchmark.parquet").to_pylist() if r["benchmark"] == "bench"
    ]
    root = EXAMPLES / "benchmark"
    task_dirs = sorted(p.parent.relative_to(root).as_posix() for p in root.glob("tasks/*/*/*/answer"))
    # Paths are relative to the repository root, which holds examples/benchmark.
    assert sorted("tasks/" + i["path"].split("tasks/", 1)[1] for i in items) == task_dirs
    for item in items:
        level_dir = item["path"].split("tasks/", 1)[1].split("/")[0]
        assert item["level"] == int(level_dir.removeprefix("level"))
        assert item["answers"] and all(item["answers"])
        assert item["description"], "api_desc.md is kept"
        assert "torch" in item["reference"], "the PyTorch reference is kept"
    assert any(len(i["answers"]) == 2 for i in items), "a task with answer/0 and answer/1"


def test_pytorch_only_benchmark_gives_name_items_without_code(workspace):
    done = run_curate(
        "ingest", str(EXAMPLES / "pytorch-bench"), "-w", str(workspace), "--benchmark", "--name", "torch"
    )
    assert done.returncode == 0, done.stderr
    assert "(pytorch)" in done.stdout
    items = [
        r for r in pq.read_table(workspace / "benchmark.parquet").to_pylist() if r["benchmark"] == "torch"
    ]
    assert len(items) == len(list((EXAMPLES / "pytorch-bench").rglob("*.py")))
    assert all(i["answers"] == [] and "torch" in i["reference"] and i["op_name"] for i in items)
    # The other benchmark's rows are untouched.
    assert any(r["benchmark"] == "bench" for r in pq.read_table(workspace / "benchmark.parquet").to_pylist())
