"""Reading and writing workspace tables: a table is replaced whole, or not at all."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import pyarrow as pa
import pyarrow.parquet as pq

from schemas.arrow import arrow_schema, from_rows, required_columns, table_problem, to_table
from schemas.atomic import atomic_path

T = TypeVar("T")


def write_table_atomic(path: Path, table: pa.Table) -> None:
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")


def write_records(path: Path, cls: type, records: list[Any]) -> None:
    write_table_atomic(path, to_table(cls, records))


class TableError(ValueError):
    """A workspace table that cannot be read as its schema says: one line naming the file and
    the column (the CLI reports it with exit status 2, before anything is written)."""


def _open_table(path: Path, columns: Sequence[str] | None = None) -> pa.Table:
    try:
        if columns is not None:  # only those the file has: the schema check names the missing ones
            names = set(pq.read_schema(path).names)
            return pq.read_table(path, columns=[c for c in columns if c in names])
        return pq.read_table(path)
    except FileNotFoundError:
        raise TableError(f"{path} does not exist") from None
    except PermissionError:
        raise TableError(f"{path} is not readable (permission denied)") from None
    except (pa.ArrowException, OSError, ValueError) as exc:
        what = " ".join(str(exc).split())[:200]
        raise TableError(f"{path} is not a readable parquet table ({what})") from None


def read_table(path: Path, cls: type | None = None, columns: Sequence[str] | None = None) -> pa.Table:
    """Read a table; with `cls`, check it against that schema (required columns present, keys
    non-null, each column's type compatible) and cast to it (columns added later read as nulls).
    A table that fails the check raises `TableError` naming the file and the column. `columns`
    reads only those (a summary need not load every unit's code): the whole file's schema is
    still checked, nulls only in the columns read."""
    table = _open_table(path, columns)
    if cls is None:
        return table
    problem = table_problem(cls, table) if columns is None else _projected_problem(cls, path, table)
    if problem:
        raise TableError(f"{path}: {problem}; rebuild it with the command that writes it")
    schema = arrow_schema(cls)
    if columns is not None:
        schema = pa.schema([schema.field(name) for name in columns])
    arrays = []
    for fld in schema:
        if fld.name in table.column_names:
            try:
                arrays.append(table.column(fld.name).cast(fld.type))
            except (pa.ArrowException, ValueError, OverflowError) as exc:
                what = " ".join(str(exc).split())[:160]
                raise TableError(
                    f"{path}: column {fld.name!r} does not hold {fld.type} values ({what})"
                ) from None
        else:
            arrays.append(pa.nulls(table.num_rows, fld.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def _projected_problem(cls: type, path: Path, table: pa.Table) -> str | None:
    """`table_problem` for a table read in part: the file's whole schema (missing columns, types)
    is checked, and nulls in the required columns that were read."""
    problem = table_problem(cls, pq.read_schema(path).empty_table())
    if problem:
        return problem
    for name in required_columns(cls):
        if name in table.column_names and table.column(name).null_count:
            return f"column {name!r} has {table.column(name).null_count} null value(s)"
    return None


def read_records(path: Path, cls: type[T]) -> list[T]:
    return from_rows(cls, read_table(path, cls).to_pylist())
