"""The verify stage: re-judge the stored annotations and attempts with the verifiers of the day
(no teacher call), rewrite both tables atomically and record the run. When the tables have not
been exported yet but the annotation journal exists, they are exported from it first. The journal
itself is left as the annotation run wrote it: a later `curate annotate` re-judges its cached
answers with the verifiers of that day, `curate annotate --export-only` restores its verdicts."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import TypeVar

from annotate.reasoning import VerifyConfig, default_verifiers
from annotate.reasoning.rerun import ReverifySummary, reverify
from curate.errors import UserError
from curate.selection import Subset, selected_ids
from curate.stage import Stage
from curate.stages.annotate import export_journal
from curate.workspace import Workspace
from schemas import Annotation, Attempt, KernelUnit, read_records
from schemas.runs import VerifyRun

T = TypeVar("T", Annotation, Attempt)


@dataclass(slots=True)
class VerifyOutcome:
    summary: ReverifySummary
    verifiers: list[str]
    elapsed_s: float


def _merged(rows: list[T], chosen: set[str], rejudged: list[T]) -> list[T]:
    """`rows` with those of the chosen units replaced, in order, by their re-judged versions
    (`reverify` returns one row for each row it was given, in the same order)."""
    replacements = iter(rejudged)
    return [next(replacements) if row.unit_id in chosen else row for row in rows]


def _run(ws: Workspace, config: VerifyConfig, subset: Subset | None = None) -> VerifyOutcome:
    started = time.monotonic()
    chosen = selected_ids(ws, subset or Subset())  # a bad flag stops the run before any table is read
    if not ws.annotations.exists():
        if not ws.journal.exists():
            ws.require("annotations")
        export_journal(ws)
    units = {u.unit_id: u for u in read_records(ws.units, KernelUnit)}
    annotations = read_records(ws.annotations, Annotation)
    attempts = read_records(ws.attempts, Attempt) if ws.attempts.exists() else []
    verifiers = default_verifiers(config)
    if chosen is None:
        new_annotations, new_attempts, summary = reverify(units, annotations, attempts, verifiers)
    else:
        mine = [a for a in annotations if a.unit_id in chosen]
        if not mine:
            raise UserError(
                f"none of the {len(chosen)} units of the selection {(subset or Subset()).describe()} "
                "has an annotation: run `curate annotate` on them first"
            )
        their_attempts = [a for a in attempts if a.unit_id in chosen]
        judged, judged_attempts, summary = reverify(units, mine, their_attempts, verifiers)
        new_annotations = _merged(annotations, chosen, judged)
        new_attempts = _merged(attempts, chosen, judged_attempts)
    ws.write_table("annotations", Annotation, new_annotations)
    if ws.attempts.exists() or new_attempts:
        ws.write_table("attempts", Attempt, new_attempts)
    elapsed = round(time.monotonic() - started, 2)
    return VerifyOutcome(summary, [v.name for v in verifiers], elapsed)


VERIFY: Stage[VerifyOutcome] = Stage(
    "verify",
    _run,
    config=VerifyConfig,
    reads=("units",),
    writes=("annotations", "attempts"),
    record=lambda config, outcome: VerifyRun(
        config=dataclasses.asdict(config),
        summary=dataclasses.asdict(outcome.summary),
        verifiers=outcome.verifiers,
        elapsed_s=outcome.elapsed_s,
    ),
)


def run_verify(ws: Workspace, config: VerifyConfig, subset: Subset | None = None) -> VerifyOutcome:
    """Re-judge the annotations of `ws` (of the units `subset` selects; the others are kept as they are)."""
    return VERIFY.execute(ws, config, subset)
