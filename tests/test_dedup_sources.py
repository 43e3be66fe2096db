"""Table benchmarks and audit sides: parquet, jsonl, local dataset directories, code directories."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from curate.sources import benchmark_from_table, iter_corpus, load_benchmark
from schemas import KernelUnit, write_records
from tests.test_dedup_helpers import elementwise_kernel, unit, unrelated_kernel

ROWS = [
    {"task": "AddCustom", "solution": elementwise_kernel(), "level": "1"},
    {"task": "AddCustom", "solution": elementwise_kernel("Mul"), "level": "1"},
    {"task": "SumSquares", "solution": unrelated_kernel(), "level": "level2"},
]


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_parquet_benchmark_groups_rows_by_id(tmp_path: Path) -> None:
    path = tmp_path / "bench.parquet"
    pq.write_table(pa.Table.from_pylist(ROWS), path)
    items = benchmark_from_table(str(path), name="kb", code_column="solution", id_column="task")
    assert [(i.task_name, len(i.answers), i.level) for i in items] == [
        ("AddCustom", 2, 1),
        ("SumSquares", 1, 2),
    ]
    assert items[0].benchmark == "kb" and items[0].answer_paths == ["AddCustom", "AddCustom#2"]


def test_jsonl_benchmark_without_id_column_has_one_item_per_row(tmp_path: Path) -> None:
    items = benchmark_from_table(
        str(write_jsonl(tmp_path / "b.jsonl", ROWS)), name="kb", code_column="solution", id_column=None
    )
    assert len(items) == 3 and len({i.item_id for i in items}) == 3


def test_local_dataset_directory_reads_like_a_hub_dataset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    import datasets

    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "cache")
    data = tmp_path / "my-bench" / "data"
    data.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(ROWS), data / "test-00000-of-00001.parquet")
    items = benchmark_from_table(
        str(tmp_path / "my-bench"), name="my-bench", code_column="solution", id_column="task"
    )
    assert sorted(i.task_name for i in items) == ["AddCustom", "SumSquares"]


@pytest.mark.parametrize(
    ("rows", "column", "message"),
    [
        ([], "solution", "has no rows"),
        (ROWS, "code", "no column 'code' (columns: level, solution, task); pass --code-column"),
        ([{"task": "x", "solution": ""}, {"task": "y", "solution": None}], "solution", "empty in every row"),
    ],
)
def test_bad_tables_raise_one_clear_line(tmp_path: Path, rows: list[dict], column: str, message: str) -> None:
    path = write_jsonl(tmp_path / "b.jsonl", rows)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")) as err:
        benchmark_from_table(str(path), name="b", code_column=column, id_column=None)
    assert "\n" not in str(err.value)


def test_bad_sources_raise_one_clear_line(tmp_path: Path) -> None:
    (tmp_path / "bad.jsonl").write_text("{not json}\n")
    (tmp_path / "table.csv.txt").write_text("a,b\n")
    cases = {
        str(tmp_path / "bad.jsonl"): "bad.jsonl:1: not valid JSON",
        str(tmp_path / "table.csv.txt"): "unsupported file type .txt",
        str(tmp_path / "missing" / "x.parquet"): "no such file or directory",
    }
    for source, message in cases.items():
        with pytest.raises(ValueError, match=message):
            benchmark_from_table(source, name="b", code_column="code", id_column=None)


def load_corpus(source: str) -> list[KernelUnit]:
    """The training side as `audit` streams it, all batches together."""
    return [u for batch in iter_corpus(source) for u in batch]


def test_directory_of_code_files_is_raw_text_for_training_and_kernels_for_testing(tmp_path: Path) -> None:
    (tmp_path / "src" / "sub").mkdir(parents=True)
    (tmp_path / "src" / "add_custom.cpp").write_text(elementwise_kernel())
    (tmp_path / "src" / "sub" / "util.h").write_text("#pragma once\nint f();\n")
    (tmp_path / "src" / "notes.md").write_text("ignored")
    units = load_corpus(str(tmp_path / "src"))
    assert [(u.path, u.op_name) for u in units] == [("add_custom.cpp", "add_custom"), ("sub/util.h", "util")]
    # The test side is read as `ingest --benchmark` reads it: one item per kernel, no header alone;
    # the header no kernel includes is named as left out.
    side = load_benchmark(str(tmp_path / "src"))
    assert [i.answer_paths for i in side.items] == [["add_custom.cpp"]]
    assert side.left_out == ["sub/util.h"]
    # Asked for text, every code file is an item, whole.
    side = load_benchmark(str(tmp_path / "src"), code_from="text")
    assert [i.answer_paths for i in side.items] == [["add_custom.cpp"], ["sub/util.h"]]
    assert side.left_out == []
    with pytest.raises(ValueError, match="takes only `text`"):
        load_benchmark(str(tmp_path / "src"), code_from="fenced")
    # Code without any AscendC kernel is still audited, as raw text.
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "a.cpp").write_text("int a() { return 1; }\n")
    assert [i.answer_paths for i in load_benchmark(str(tmp_path / "plain")).items] == [["a.cpp"]]
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no code files"):
        load_corpus(str(tmp_path / "empty"))


def test_workspace_sides(tmp_path: Path) -> None:
    write_records(tmp_path / "units.parquet", KernelUnit, [unit("u1", elementwise_kernel(), op="add")])
    assert [u.unit_id for u in load_corpus(str(tmp_path))] == ["u1"]
    # A workspace without a benchmark serves as a test side through its units.
    assert [i.item_id for i in load_benchmark(str(tmp_path)).items] == ["u1"]
