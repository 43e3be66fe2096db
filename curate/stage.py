"""The stage contract: every stage of `curate` is one declaration (as NeMo-Curator and datatrove
declare theirs), and the workspace runs it the same way.

    Stage(name, run, config=<config dataclass>, reads=(tables...), writes=(tables...), record=...)

`Stage.execute(ws, config, ...)` is the only way a workspace stage runs:

1. `check(config, ...)`: argument checks that need no table (an unknown engine, a bad bound);
2. every table in `reads` must exist, or one line says which command writes it ("run X first");
3. under the workspace lock, `run(ws, config, ...)` returns the stage's typed summary; the tables
   it writes go through `Workspace.write_table`, which writes atomically and refuses a table the
   declaration does not name in `writes`;
4. `record(config, summary)` is the typed run (`schemas.runs`) appended to meta.json.

The next step of the contract (ingest takes it first): `run` returns `Outputs`: the summary,
the rows of each table it writes, its reports and its typed run. `execute` then writes them
(the tables through the same declared-`writes` check) and records the run, so the stage body
reads its inputs and computes, and never goes back and forth with the workspace.

Stages that touch no workspace (audit, check-kernel, doctor) have no declaration: they are
functions from their arguments to a summary. The CLI options of a stage come from its config
dataclass (`curate.options`), so a command module only prints the summary.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from curate.errors import UserError
from schemas.runs import StageRun

if TYPE_CHECKING:
    from curate.workspace import Workspace

S = TypeVar("S")

# The tables the running stage declared it writes (None outside a stage: tests, tools).
WRITING: contextvars.ContextVar[tuple[str, ...] | None] = contextvars.ContextVar("writing", default=None)


@dataclass(slots=True)
class TableRows:
    """Rows for one declared table: the whole table, or (`key` and `value` given) the rows whose
    `key` is `value` (one source's rows), the table's other rows kept."""

    table: str
    cls: type[Any]
    rows: list[Any]
    key: str | None = None
    value: str | None = None


@dataclass(slots=True)
class Outputs(Generic[S]):
    """What a stage's `run` hands back for `Stage.execute` to write and record."""

    summary: S
    tables: list[TableRows] = field(default_factory=list)
    reports: dict[str, Any] = field(default_factory=dict)  # file name under reports/ -> JSON value
    run: StageRun | None = None  # the typed run for meta.json (instead of `Stage.record`)
    written: dict[str, Path] = field(default_factory=dict)  # set by execute: table or report -> path
    # called by execute once the tables and reports are written, still under the workspace lock
    on_written: Callable[[], None] | None = None


@dataclass(frozen=True, slots=True)
class Stage(Generic[S]):
    """One stage: what it reads and writes, how it runs, what it records."""

    name: str  # the command (`curate <name>`)
    run: Callable[..., S]  # run(ws, config, ...) -> summary, under the workspace lock
    config: type[Any] | None = None
    reads: tuple[str, ...] = ()  # tables that must exist before the stage runs
    writes: tuple[str, ...] = ()  # tables the stage may replace
    record: Callable[[Any, S], StageRun | None] | None = None  # the typed run for meta.json
    check: Callable[..., None] | None = None  # argument checks before any table is read
    existing_workspace: bool = False  # True: never create the workspace (build, push)
    # How a user runs this stage to get a table, when not plain `curate <name>` ("ingest --benchmark").
    commands: tuple[tuple[str, str], ...] = ()

    def command_for(self, table: str) -> str:
        return dict(self.commands).get(table, self.name)

    def execute(self, ws: Workspace, config: Any, *args: Any, **kwargs: Any) -> S:
        if self.check is not None:
            self.check(config, *args, **kwargs)
        if self.existing_workspace and not ws.root.is_dir():
            raise UserError(
                f"workspace {ws.root} does not exist: run `curate ingest` into it first, or fix --workspace"
            )
        ws.require_tables(self.reads)
        with ws.locked():
            token = WRITING.set(self.writes)  # what Workspace.write_table lets this stage write
            try:
                summary = self.run(ws, config, *args, **kwargs)
                if isinstance(summary, Outputs):
                    summary.written = ws.write_outputs(summary.tables, summary.reports)
                    if summary.on_written is not None:
                        summary.on_written()
            finally:
                WRITING.reset(token)
            run: StageRun | None
            if isinstance(summary, Outputs) and summary.run is not None:
                run = summary.run
            else:
                run = self.record(config, summary) if self.record is not None else None
            if run is not None:
                ws.record_run(run)
        return summary
