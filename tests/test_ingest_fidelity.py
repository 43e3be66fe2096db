"""Real-world values never sink a run: uint64 tiling keys round-trip exactly, a unit whose row
no column can hold is skipped with its reason, and units carry their size."""

from __future__ import annotations

import json
from pathlib import Path

import datasets
import polars as pl
import pyarrow as pa

from curate.workspace import Workspace
from parsers.config import IngestConfig
from parsers.ingest import ingest_directory
from parsers.units import SourceInfo
from schemas import UINT64_MAX, KernelUnit, arrow_schema, code_size, read_records, recordable
from tests.conftest import run_curate

BIG_KEY = 10000000000000000024  # above 2**63, below 2**64: a real AscendC tiling key

KERNEL = """\
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void big_key(GM_ADDR x, GM_ADDR tiling)
{{
    if (TILING_KEY_IS({key}UL)) {{
        AscendC::Abs(x, x, 8);
    }} else if (TILING_KEY_IS(1)) {{
        AscendC::Exp(x, x, 8);
    }}
}}
"""


def test_tiling_key_above_int64_survives_ingest_and_reads_back_exactly(tree, tmp_path: Path):
    root = tree({"op_kernel/big_key.cpp": KERNEL.format(key=BIG_KEY)})
    ws = tmp_path / "ws"
    done = run_curate("ingest", str(root), "-w", str(ws), "--jobs", "1")
    assert done.returncode == 0, done.stderr
    (unit,) = read_records(Workspace(ws).units, KernelUnit)
    assert unit.tiling_keys == [1, BIG_KEY]
    # Readable, exactly, by the other two readers users have.
    assert pl.read_parquet(Workspace(ws).units)["tiling_keys"].to_list() == [[1, BIG_KEY]]
    loaded = datasets.Dataset.from_parquet(str(Workspace(ws).units))
    assert loaded[0]["tiling_keys"] == [1, BIG_KEY]


def test_key_no_column_can_hold_skips_that_unit_only_with_its_reason(tree, tmp_path: Path):
    too_big = UINT64_MAX + 1  # not a valid C++ literal either; the parser still reads it
    root = tree(
        {
            "op_kernel/bad.cpp": KERNEL.format(key=too_big).replace("big_key", "bad_key"),
            "op_kernel/good.cpp": KERNEL.format(key=BIG_KEY),
        }
    )
    ws = tmp_path / "ws"
    done = run_curate("ingest", str(root), "-w", str(ws), "--jobs", "1", "--name", "src")
    assert done.returncode == 0, done.stderr
    assert "1 unrecordable unit" in done.stdout + done.stderr
    units = read_records(Workspace(ws).units, KernelUnit)
    assert [u.kernel_name for u in units] == ["big_key"]
    report = json.loads((ws / "reports" / "ingest-src.json").read_text())
    (skip,) = [s for s in report["skipped"] if s["path"] == "op_kernel/bad.cpp"]
    assert "bad_key" in skip["reason"] and "tiling_keys" in skip["reason"]


def test_recordable_splits_only_the_bad_rows():
    ok = KernelUnit("a", "s", "", "", "a.cpp", "standalone", "a", "a", tiling_keys=[UINT64_MAX])
    bad = KernelUnit("b", "s", "", "", "b.cpp", "standalone", "b", "b", tiling_keys=[-1])
    good, rejected = recordable(KernelUnit, [ok, bad])
    assert good == [ok]
    assert [(r.unit_id, "tiling_keys" in why) for r, why in rejected] == [("b", True)]


def test_array_sizes_are_unsigned_64_bit():
    fld = arrow_schema(KernelUnit).field("tiling_fields").type.value_type.field("array_size")
    assert fld.type == pa.uint64()


def test_units_carry_their_size(tree):
    code = KERNEL.format(key=7)
    root = tree({"op_kernel/k.cpp": code})
    result = ingest_directory(root, SourceInfo("s", "", "", ""), IngestConfig(jobs=1))
    (unit,) = result.units
    assert (unit.lines, unit.chars) == (code.count("\n"), len(code))
    assert unit.tokens == -(-len(code) // 4)
    assert code_size("a\nb") == (2, 3, 1)
    assert code_size("") == (0, 0, 0)
