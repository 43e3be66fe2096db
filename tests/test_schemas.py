"""One source of truth: the Arrow, polars and datasets schemas all come from the dataclasses."""

from __future__ import annotations

import dataclasses

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from schemas import (
    Decision,
    Diagnostic,
    KernelClass,
    KernelUnit,
    OpDef,
    Param,
    TensorSpec,
    TilingField,
    arrow_schema,
    datasets_features,
    from_rows,
    polars_schema,
    read_records,
    to_table,
    write_records,
)


def sample_unit() -> KernelUnit:
    return KernelUnit(
        unit_id="u1",
        source="s",
        origin_url="https://example.invalid/r.git",
        commit="abc",
        path="ops/add/op_kernel/add.cpp",
        layout="msopgen",
        op_name="add",
        kernel_name="add",
        params=[Param("x", "GM_ADDR")],
        kernel_classes=[KernelClass("KernelAdd", ["Init", "Process"], [Param("T", "typename")])],
        tiling_fields=[TilingField("totalLength", "uint32_t"), TilingField("shape", "uint32_t", 4)],
        tiling_keys=[1, 2],
        op_def=OpDef("Add", inputs=[TensorSpec("x", dtypes=["DT_FLOAT"], formats=["FORMAT_ND"])]),
        apis=["Add", "DataCopy"],
        diagnostics=[Diagnostic("clang", "error", "unknown type name 'TPipe'", "a.cpp", 3)],
        code="// code",
    )


def test_every_field_becomes_a_column_in_order():
    names = [f.name for f in dataclasses.fields(KernelUnit)]
    assert arrow_schema(KernelUnit).names == names
    assert list(polars_schema(KernelUnit).keys()) == names
    assert list(datasets_features(KernelUnit).keys()) == names


def test_nested_types_are_derived_from_annotations():
    schema = arrow_schema(KernelUnit)
    assert schema.field("params").type == pa.list_(pa.struct([("name", pa.string()), ("type", pa.string())]))
    assert schema.field("tiling_keys").type == pa.list_(pa.uint64())
    assert pa.types.is_struct(schema.field("op_def").type)
    assert polars_schema(Decision)["score"] == pl.Float64


def test_records_round_trip_through_parquet(tmp_path):
    unit = sample_unit()
    path = tmp_path / "units.parquet"
    write_records(path, KernelUnit, [unit, dataclasses.replace(unit, unit_id="u2", op_def=None)])
    back = read_records(path, KernelUnit)
    assert back[0] == unit
    assert back[1].op_def is None


def test_table_missing_a_new_column_reads_with_defaults(tmp_path):
    table = to_table(KernelUnit, [sample_unit()]).drop_columns(["tiling_keys", "host_tiling"])
    pq.write_table(table, tmp_path / "old.parquet")
    (unit,) = read_records(tmp_path / "old.parquet", KernelUnit)
    assert unit.tiling_keys == [] and unit.host_tiling == ""
    assert unit.apis == ["Add", "DataCopy"]


def test_from_rows_ignores_unknown_columns():
    (decision,) = from_rows(Decision, [{"unit_id": "u", "decision": "keep", "extra": 1}])
    assert decision == Decision("u", "keep")
