"""Every workspace stage's declaration, in pipeline order: what `Workspace.require` consults to
say which command writes a missing table, and what the README's stage diagram shows.

Annotate and knowledge run their own loop (`curate.stages.annotate`, `curate.stages.knowledge`:
they check their inputs, lock and record by themselves); they are declared here for the tables
they read and write, so "run X first" names them too."""

from __future__ import annotations

from typing import Any

from curate.stage import Stage
from curate.stages.build import BUILD
from curate.stages.dedup import DEDUP
from curate.stages.ingest import INGEST
from curate.stages.ingest_docs import INGEST_DOCS
from curate.stages.push import PUSH
from curate.stages.verify import VERIFY


def _runs_itself(*_: Any, **__: Any) -> None:
    raise RuntimeError("this stage runs through its own entry point (run_annotate / run_knowledge)")


ANNOTATE: Stage[None] = Stage(
    "annotate", _runs_itself, reads=("units",), writes=("journal", "annotations", "attempts")
)
KNOWLEDGE: Stage[None] = Stage(
    "knowledge",
    _runs_itself,
    reads=("docs",),
    writes=("knowledge",),
    commands=(("knowledge", "annotate --task knowledge"),),
)

STAGES: tuple[Stage[Any], ...] = (INGEST, INGEST_DOCS, DEDUP, ANNOTATE, KNOWLEDGE, VERIFY, BUILD, PUSH)


def declared(name: str) -> Stage[Any]:
    for stage in STAGES:
        if stage.name == name:
            return stage
    raise KeyError(f"no stage is declared as {name!r}")


def producer(table: str) -> str:
    """The command that writes `table` (the first stage declaring it)."""
    for stage in STAGES:
        if table in stage.writes:
            return stage.command_for(table)
    raise KeyError(f"no stage writes the table {table!r}")
