"""Typed records that flow between the stages, and their Arrow / polars / datasets schemas.

Every table in a workspace is described here once, as a slotted dataclass. The Arrow schema,
the polars schema and the `datasets.Features` are derived from the dataclass annotations, so a
column cannot drift between the parser that writes it and the stage that reads it.
"""

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
from schemas.records import (
    SCHEMA_VERSION,
    UINT64_MAX,
    Annotation,
    Attempt,
    BenchmarkItem,
    DatasetRow,
    Decision,
    Diagnostic,
    KernelClass,
    KernelUnit,
    OpDef,
    Param,
    PreferencePair,
    TensorSpec,
    TilingField,
    UInt64,
    code_size,
    stable_id,
)
from schemas.tables import read_records, read_table, write_records, write_table_atomic

__all__ = [
    "SCHEMA_VERSION",
    "UINT64_MAX",
    "Annotation",
    "Attempt",
    "BenchmarkItem",
    "DatasetRow",
    "Decision",
    "Diagnostic",
    "KernelClass",
    "KernelUnit",
    "OpDef",
    "Param",
    "PreferencePair",
    "TensorSpec",
    "TilingField",
    "UInt64",
    "arrow_schema",
    "code_size",
    "datasets_features",
    "from_rows",
    "polars_schema",
    "read_records",
    "read_table",
    "recordable",
    "row_error",
    "stable_id",
    "to_rows",
    "to_table",
    "write_records",
    "write_table_atomic",
]
