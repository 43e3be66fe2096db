"""Derive Arrow, polars and `datasets` schemas from the record dataclasses, and convert rows.

The dataclass annotations are the only source of truth: `str` -> string, `int` -> int64,
`UInt64` (`Annotated[int, "uint64"]`) -> uint64, `float` -> float64, `bool` -> bool,
`list[X]` -> list<X>, a nested dataclass -> struct, `X | None` -> nullable X.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from typing import Any, TypeVar

import pyarrow as pa

T = TypeVar("T")

_SCALARS: dict[type, pa.DataType] = {
    str: pa.string(),
    int: pa.int64(),
    float: pa.float64(),
    bool: pa.bool_(),
}


def _unwrap_optional(tp: Any) -> tuple[Any, bool]:
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
        raise TypeError(f"unsupported union {tp!r}")
    return tp, False


_MARKED: dict[str, pa.DataType] = {"uint64": pa.uint64()}


def _arrow_type(tp: Any) -> pa.DataType:
    tp, _ = _unwrap_optional(tp)
    if typing.get_origin(tp) is typing.Annotated:
        base, *marks = typing.get_args(tp)
        for mark in marks:
            if mark in _MARKED:
                return _MARKED[mark]
        return _arrow_type(base)
    if tp in _SCALARS:
        return _SCALARS[tp]
    if typing.get_origin(tp) is list:
        (item,) = typing.get_args(tp)
        return pa.list_(_arrow_type(item))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return pa.struct(_fields(tp))
    raise TypeError(f"no Arrow type for {tp!r}")


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls, include_extras=True)


def _fields(cls: type) -> list[pa.Field]:
    hints = _hints(cls)
    # Every column is nullable in Arrow so that a table written before a column existed still
    # reads; the dataclass defaults, not the Arrow schema, say what a missing value means.
    return [pa.field(f.name, _arrow_type(hints[f.name])) for f in dataclasses.fields(cls)]


@functools.cache
def arrow_schema(cls: type) -> pa.Schema:
    """The Arrow schema of a record class."""
    return pa.schema(_fields(cls))


def polars_schema(cls: type) -> Any:
    """The polars schema of a record class (derived from the Arrow schema)."""
    import polars as pl

    return pl.from_arrow(arrow_schema(cls).empty_table()).schema  # type: ignore[union-attr]


def datasets_features(cls: type) -> Any:
    """The `datasets.Features` of a record class (derived from the Arrow schema)."""
    from datasets import Features

    return Features.from_arrow_schema(arrow_schema(cls))


def _to_plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list):
        return [_to_plain(v) for v in value]
    return value


def to_rows(records: typing.Iterable[Any]) -> list[dict[str, Any]]:
    return [_to_plain(r) for r in records]


def to_table(cls: type, records: typing.Iterable[Any]) -> pa.Table:
    """Records -> Arrow table with exactly the schema of `cls`."""
    return pa.Table.from_pylist(to_rows(records), schema=arrow_schema(cls))


def row_error(cls: type, record: Any) -> str | None:
    """Why `record` cannot be a row of `cls`'s table (a value outside its column's type, ...),
    or None when it can. One line, naming the column."""
    row = _to_plain(record)
    schema = arrow_schema(cls)
    for fld in schema:
        try:
            pa.array([row.get(fld.name)], type=fld.type)
        except (pa.ArrowException, OverflowError, TypeError, ValueError) as exc:
            return f"column {fld.name} ({fld.type}) cannot hold its value: {type(exc).__name__}: {exc}"
    return None


def recordable(cls: type[T], records: typing.Iterable[T]) -> tuple[list[T], list[tuple[T, str]]]:
    """Split records into those that fit `cls`'s Arrow schema and those that do not (with the
    reason), so that one bad value never loses a whole table write."""
    records = list(records)
    try:
        to_table(cls, records)
        return records, []
    except (pa.ArrowException, OverflowError, TypeError, ValueError):
        pass
    good: list[T] = []
    bad: list[tuple[T, str]] = []
    for record in records:
        error = row_error(cls, record)
        if error is None:
            good.append(record)
        else:
            bad.append((record, error))
    return good, bad


def _from_plain(tp: Any, value: Any) -> Any:
    tp, _ = _unwrap_optional(tp)
    if typing.get_origin(tp) is typing.Annotated:
        tp = typing.get_args(tp)[0]
    if value is None:
        return None
    if typing.get_origin(tp) is list:
        (item,) = typing.get_args(tp)
        return [_from_plain(item, v) for v in value]
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        known = {f.name for f in dataclasses.fields(tp)}
        # A null in a non-optional column (a column added after the table was written) takes
        # the field's default.
        return tp(
            **{
                k: _from_plain(hints[k], v)
                for k, v in value.items()
                if k in known and (v is not None or _unwrap_optional(hints[k])[1])
            }
        )
    return value


def from_rows(cls: type[T], rows: typing.Iterable[dict[str, Any]]) -> list[T]:
    """Plain rows (from Arrow/polars `to_pylist`/`to_dicts`) -> records of `cls`."""
    return [_from_plain(cls, row) for row in rows]


# ---- checking a table read back against its record class ---------------------------------

# Columns a table cannot be used without although their field has a default (`code` of a unit:
# without it dedup sees nothing to compare and annotate has nothing to explain).
ESSENTIAL_COLUMNS: dict[str, tuple[str, ...]] = {
    "KernelUnit": ("code",),
    "BenchmarkItem": ("answers",),
    "Annotation": ("answer",),
    "DatasetRow": ("answer",),
}


def required_columns(cls: type) -> list[str]:
    """Columns that must be present and non-null: the fields without a default (the keys and
    what a row is about), plus the class's essential columns."""
    no_default = [
        f.name
        for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    ]
    return list(dict.fromkeys(no_default + list(ESSENTIAL_COLUMNS.get(cls.__name__, ()))))


def _kind(tp: pa.DataType) -> str:
    if pa.types.is_null(tp):
        return "null"
    if pa.types.is_string(tp) or pa.types.is_large_string(tp) or str(tp) == "string_view":
        return "string"
    if pa.types.is_integer(tp):
        return "integer"
    if pa.types.is_floating(tp):
        return "float"
    if pa.types.is_boolean(tp):
        return "bool"
    if pa.types.is_list(tp) or pa.types.is_large_list(tp) or str(tp).startswith("list_view"):
        return "list"
    if pa.types.is_struct(tp):
        return "struct"
    return str(tp)


def type_problem(actual: pa.DataType, expected: pa.DataType) -> str | None:
    """Why a column of type `actual` cannot be read as `expected` (None when it can: the same
    kind of value, or all nulls; an integer column may be read as floats)."""
    got, want = _kind(actual), _kind(expected)
    if got == "null" or got == want or (got, want) == ("integer", "float"):
        if got == "list" and want == "list":
            return type_problem(actual.value_type, expected.value_type)
        if got == "struct" and want == "struct":
            for i in range(expected.num_fields):
                sub = expected.field(i)
                index = actual.get_field_index(sub.name)
                if index >= 0 and (why := type_problem(actual.field(index).type, sub.type)):
                    return f"{sub.name}: {why}"
        return None
    return f"holds {actual} values, expected {expected}"


def table_problem(cls: type, table: pa.Table) -> str | None:
    """The first thing that makes `table` unreadable as rows of `cls`, naming the column."""
    schema = arrow_schema(cls)
    names = set(table.column_names)
    for name in required_columns(cls):
        if name not in names:
            return f"column {name!r} is missing"
        if table.column(name).null_count:
            return f"column {name!r} has {table.column(name).null_count} null value(s)"
    for fld in schema:
        if fld.name in names and (why := type_problem(table.schema.field(fld.name).type, fld.type)):
            return f"column {fld.name!r} {why}"
    return None
