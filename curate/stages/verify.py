"""The verify stage: re-judge the stored annotations and attempts with the verifiers of the day
(no teacher call), rewrite both tables atomically and record the run. When the tables have not
been exported yet but the annotation journal exists, they are exported from it first. The journal
itself is left as the annotation run wrote it: a later `curate annotate` re-judges its cached
answers with the verifiers of that day, `curate annotate --export-only` restores its verdicts."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from annotate.reasoning import VerifyConfig, default_verifiers
from annotate.reasoning.rerun import ReverifySummary, reverify
from curate.stages.annotate import export_journal
from curate.workspace import Workspace
from schemas import Annotation, Attempt, KernelUnit, read_records, write_records
from schemas.runs import VerifyRun


@dataclass(slots=True)
class VerifyOutcome:
    summary: ReverifySummary
    verifiers: list[str]
    elapsed_s: float


def run_verify(ws: Workspace, config: VerifyConfig) -> VerifyOutcome:
    ws.require_inputs("verify")
    started = time.monotonic()
    with ws.locked():
        if not ws.annotations.exists():
            if not ws.journal.exists():
                ws.require("annotations")
            export_journal(ws)
        units = {u.unit_id: u for u in read_records(ws.units, KernelUnit)}
        annotations = read_records(ws.annotations, Annotation)
        attempts = read_records(ws.attempts, Attempt) if ws.attempts.exists() else []
        verifiers = default_verifiers(config)
        new_annotations, new_attempts, summary = reverify(units, annotations, attempts, verifiers)
        write_records(ws.annotations, Annotation, new_annotations)
        if ws.attempts.exists() or new_attempts:
            write_records(ws.attempts, Attempt, new_attempts)
        names = [v.name for v in verifiers]
        elapsed = round(time.monotonic() - started, 2)
        ws.record_run(
            VerifyRun(
                config=dataclasses.asdict(config),
                summary=dataclasses.asdict(summary),
                verifiers=names,
                elapsed_s=elapsed,
            )
        )
    return VerifyOutcome(summary, names, elapsed)
