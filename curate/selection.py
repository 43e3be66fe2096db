"""Which units a run of `annotate`, `verify` or `build` works on: the subset flags, declared once.

    curate annotate --source ops-math --category reduction
    curate annotate --where "loc < 300 AND core_type = 'vector'"
    curate annotate --units ids.txt        # unit ids, one per line ('#' starts a comment)
    curate annotate --only-failed          # the units whose last annotation failed or was rejected
    curate verify --source ops-math        # re-judge only those; other rows are left as they are
    curate build --category math           # publish only those

The flags combine with AND. `--where` is an SQL expression over the columns of units.parquet,
parsed by polars' SQL front end (`pl.sql_expr`) and checked against the table's schema before
anything runs: no Python is ever evaluated. Every mistake (a bad expression, an unknown column,
source or category, ids the table does not hold, a selection that matches nothing) is one line
and exit status 2.

The selection only narrows the units a stage sees; the annotation journal and cache are keyed by
unit and request as before, so a unit annotated in a subset run is not asked again in a full one.
This module is imported when the CLI loads (the options), so polars is imported only inside the
functions that read tables.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING

from curate.errors import UserError
from schemas.config import option

if TYPE_CHECKING:
    import polars as pl

    from curate.workspace import Workspace

# What `--only-failed` re-runs: the last verdict a unit got.
FAILED_VERDICTS = ("failed", "rejected")


@dataclass(frozen=True, slots=True)
class Subset:
    """The subset flags as given on the command line (every one empty: all units)."""

    source: list[str] = option(
        factory=list, help="Only units of this source (repeat the flag, or separate names by commas)."
    )
    category: list[str] = option(
        factory=list, help="Only units of this category (repeat the flag, or separate names by commas)."
    )
    where: str = option(
        "",
        help="Only units for which this SQL expression over the columns of units.parquet holds, "
        "e.g. \"loc < 300 AND core_type = 'vector'\".",
    )
    units: Path | None = option(None, help="Only the unit ids listed in this file, one per line.")
    only_failed: bool = option(
        False, help="Only units whose last annotation failed or was rejected.", flag="--only-failed"
    )

    def given(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))

    def describe(self) -> str:
        """The flags as a user would type them (for messages)."""
        parts = [f"--source {','.join(self.source)}"] if self.source else []
        parts += [f"--category {','.join(self.category)}"] if self.category else []
        parts += [f"--where {self.where!r}"] if self.where else []
        parts += [f"--units {self.units}"] if self.units else []
        parts += ["--only-failed"] if self.only_failed else []
        return " ".join(parts)


# The flags each stage takes (only annotate re-runs failures; verify and build judge what is stored).
SUBSET_OPTIONS = ("source", "category", "where", "units")
ANNOTATE_SUBSET_OPTIONS = (*SUBSET_OPTIONS, "only_failed")


def where_expression(where: str, schema: pl.Schema) -> pl.Expr:
    """`--where` parsed and checked against the units table's columns and types (no row is read)."""
    import polars as pl

    try:
        expr = pl.sql_expr(where)
        pl.DataFrame(schema=schema).lazy().filter(expr).collect()
    except (pl.exceptions.PolarsError, ValueError, TypeError) as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise UserError(
            f"--where {where!r} is not a usable expression over units.parquet: {_first_line(reason)}"
        ) from None
    return expr


def _first_line(reason: str, limit: int = 200) -> str:
    return reason if len(reason) <= limit else reason[: limit - 1] + "…"


def read_id_file(path: Path) -> list[str]:
    """The ids of a `--units` file: one per line, blank lines and '#' comments skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"--units {path}: cannot read it ({getattr(exc, 'strerror', None) or exc})") from None
    ids = [line.split("#", 1)[0].strip() for line in text.splitlines()]
    ids = [i for i in ids if i]
    if not ids:
        raise UserError(f"--units {path} lists no unit id (one id per line)")
    return ids


def _check_names(flag: str, wanted: list[str], present: set[str]) -> None:
    """A source or category no unit has is a typo: name it and what exists."""
    unknown = [name for name in wanted if name not in present]
    if unknown:
        shown = ", ".join(sorted(present)[:10]) + (", …" if len(present) > 10 else "")
        raise UserError(f"{flag} {unknown[0]!r} matches no unit; units.parquet has: {shown or 'none'}")


def failed_units(ws: Workspace) -> set[str]:
    """The units whose last annotation (annotations.parquet, exported from the journal after every
    annotate run) failed or was rejected."""
    import polars as pl

    if not ws.annotations.exists():
        raise UserError(
            f"--only-failed: {ws.annotations} does not exist: no annotate run to take failures from"
        )
    table = pl.read_parquet(ws.annotations, columns=["unit_id", "verdict"])
    return set(table.filter(pl.col("verdict").is_in(FAILED_VERDICTS))["unit_id"].to_list())


def selected_ids(ws: Workspace, subset: Subset) -> set[str] | None:
    """The unit ids `subset` selects from units.parquet, or None when no flag was given (all units).
    Raises UserError (one line) on a bad flag or an empty selection."""
    if not subset.given():
        return None
    import polars as pl

    ws.require("units")
    units = pl.scan_parquet(ws.units)
    schema = units.collect_schema()
    conditions: list[pl.Expr] = []
    if subset.where:
        conditions.append(where_expression(subset.where, schema))
    needed = {"unit_id", "source", "category"} | (
        set(pl.sql_expr(subset.where).meta.root_names()) if subset.where else set()
    )
    table = units.select(sorted(needed & set(schema.names()))).collect()
    for flag, column, wanted in (
        ("--source", "source", subset.source),
        ("--category", "category", subset.category),
    ):
        if wanted:
            _check_names(flag, wanted, set(table[column].unique().to_list()))
            conditions.append(pl.col(column).is_in(wanted))
    if subset.units is not None:
        ids = read_id_file(subset.units)
        known = set(table["unit_id"].to_list())
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise UserError(
                f"--units {subset.units}: {len(unknown)} of its {len(ids)} ids are not in units.parquet "
                f"(first: {unknown[0]})"
            )
        conditions.append(pl.col("unit_id").is_in(ids))
    if subset.only_failed:
        conditions.append(pl.col("unit_id").is_in(sorted(failed_units(ws))))
    try:
        chosen = table.filter(*conditions) if conditions else table
    except pl.exceptions.PolarsError as exc:  # a value the schema check could not foresee (a cast)
        reason = _first_line(" ".join(str(exc).split()))
        raise UserError(f"--where {subset.where!r} failed on units.parquet: {reason}") from None
    if chosen.height == 0:
        raise UserError(f"the selection {subset.describe()} matches none of the {table.height} units")
    return set(chosen["unit_id"].to_list())
