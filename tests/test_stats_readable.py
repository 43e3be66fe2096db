"""`curate stats` as a user reads it: levels in their own order (not by count), whole numbers
(never cut to "22593…" on an 80-column terminal), "1 unit" not "1 units", and a damaged table is
one line naming its file and column (the schema-checked reader), never a traceback."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from schemas import BenchmarkItem, KernelUnit, code_size, write_records
from tests.conftest import run_curate
from tests.test_dedup_helpers import elementwise_kernel, item, unit


def workspace(root: Path) -> Path:
    """Level 3 most common, then 1, then 2; one unit of 22,593 lines (a large assembled unit)."""
    levels = [3, 3, 3, 1, 1, 2]
    units = []
    for n, level in enumerate(levels):
        code = elementwise_kernel() if n else "\n".join(f"int filler_{i};" for i in range(22_593))
        lines, chars, tokens = code_size(code)
        units.append(
            dataclasses.replace(unit(f"u{n}", code), level=level, lines=lines, chars=chars, tokens=tokens)
        )
    root.mkdir()
    write_records(root / "units.parquet", KernelUnit, units)
    write_records(root / "benchmark.parquet", BenchmarkItem, [item("b1", ["x"], level=2)])
    return root


def test_levels_read_in_order_and_numbers_whole(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws")
    data = json.loads(run_curate("stats", "-w", str(ws), "--json").stdout)
    assert list(data["by_level"]) == ["1", "2", "3"]
    assert data["by_level"] == {"1": 2, "2": 1, "3": 3}
    done = run_curate("stats", "-w", str(ws), env={"COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    assert "…" not in done.stdout
    assert "22,593" in done.stdout  # the largest unit's lines, whole
    assert f"{data['size']['chars']['max']:,}" in done.stdout


def test_counts_of_one_read_singular(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    write_records(root / "units.parquet", KernelUnit, [unit("u1", elementwise_kernel())])
    write_records(root / "benchmark.parquet", BenchmarkItem, [item("b1", ["x"])])
    brief = run_curate("stats", "-w", str(root), "--brief").stdout
    assert brief.strip() == f"{root}: 1 unit; 1 benchmark item"
    human = run_curate("stats", "-w", str(root)).stdout
    assert "1 unit (" in human and "1 benchmark item" in human and "0 units over" in human
    assert "1 units" not in human and "1 benchmark items" not in human


def test_a_table_of_the_wrong_type_is_one_line(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws")
    table = pq.read_table(ws / "units.parquet")
    level = table.schema.get_field_index("level")
    table = table.set_column(level, "level", pa.array(["three"] * table.num_rows))
    pq.write_table(table, ws / "units.parquet")
    done = run_curate("stats", "-w", str(ws))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert str(ws / "units.parquet") in line and "'level'" in line
