"""Typed records that flow between the stages, and their Arrow / polars / datasets schemas.

Every table in a workspace is described here once, as a slotted dataclass. The Arrow schema,
the polars schema and the `datasets.Features` are derived from the dataclass annotations, so a
column cannot drift between the parser that writes it and the stage that reads it.
"""

import importlib
from typing import TYPE_CHECKING, Any

from schemas.records import (
    DEFAULT_MAX_UNIT_LINES,
    SCHEMA_VERSION,
    UINT64_MAX,
    Annotation,
    Attempt,
    BenchmarkItem,
    DatasetRow,
    Decision,
    Diagnostic,
    DocChunk,
    DocParam,
    KernelClass,
    KernelUnit,
    KnowledgeItem,
    OpDef,
    OperatorDoc,
    Param,
    PreferencePair,
    TensorSpec,
    TilingField,
    UInt64,
    code_size,
    oversized,
    stable_id,
    unit_lines,
)

# The Arrow side (pyarrow) is imported when one of its names is first used, not with the package:
# `curate --help` and every configuration module import `schemas` and must not pay for pyarrow.
_LAZY = {
    **dict.fromkeys(
        (
            "arrow_schema",
            "datasets_features",
            "from_rows",
            "polars_schema",
            "recordable",
            "row_error",
            "to_rows",
            "to_table",
        ),
        "schemas.arrow",
    ),
    **dict.fromkeys(
        ("TableError", "read_records", "read_table", "write_records", "write_table_atomic"), "schemas.tables"
    ),
}

if TYPE_CHECKING:
    from schemas.arrow import (
        arrow_schema,
        datasets_features,
        from_rows,
        polars_schema,
        recordable,
        row_error,
        to_rows,
        to_table,
    )
    from schemas.tables import TableError, read_records, read_table, write_records, write_table_atomic


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'schemas' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "DEFAULT_MAX_UNIT_LINES",
    "SCHEMA_VERSION",
    "UINT64_MAX",
    "Annotation",
    "Attempt",
    "BenchmarkItem",
    "DatasetRow",
    "Decision",
    "Diagnostic",
    "DocChunk",
    "DocParam",
    "KernelClass",
    "KernelUnit",
    "KnowledgeItem",
    "OpDef",
    "OperatorDoc",
    "Param",
    "PreferencePair",
    "TableError",
    "TensorSpec",
    "TilingField",
    "UInt64",
    "arrow_schema",
    "code_size",
    "datasets_features",
    "from_rows",
    "oversized",
    "polars_schema",
    "read_records",
    "read_table",
    "recordable",
    "row_error",
    "stable_id",
    "to_rows",
    "to_table",
    "unit_lines",
    "write_records",
    "write_table_atomic",
]
