"""Re-judge stored annotations and attempts with the verifiers of the day (`curate verify`).

No teacher is called: each stored reasoning is verified again against its unit's facts, and the
verdict and diagnostics are replaced. A unit's final verdict follows its final reasoning; its
diagnostics are, as the loop records them, the findings of all its rounds.
Annotations that never got a reasoning (`pending`, `failed`) are left as they are. A verifier that
raises yields an error diagnostic (never a silent pass), as in the annotation loop.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from schemas import Annotation, Attempt, Diagnostic, KernelUnit
from schemas.verdicts import Verifier, is_accepted, run_verifiers

JUDGED = ("accepted", "rejected")
TEACHER_CHECK_PREFIX = "teacher."  # the loop's own findings (format, refusal): not a verifier's


@dataclass
class ReverifySummary:
    annotations: int = 0
    attempts: int = 0
    accepted: int = 0
    rejected: int = 0
    changed: int = 0  # annotations whose verdict changed
    skipped: int = 0  # pending / failed / no reasoning
    unknown_units: int = 0  # annotation rows whose unit is no longer in units.parquet


def reverify(
    units: dict[str, KernelUnit],
    annotations: list[Annotation],
    attempts: list[Attempt],
    verifiers: Sequence[Verifier],
) -> tuple[list[Annotation], list[Attempt], ReverifySummary]:
    summary = ReverifySummary()
    instructions = {a.unit_id: a.instruction for a in annotations}
    memo: dict[tuple[str, str], list[Diagnostic]] = {}  # the final attempt repeats the annotation

    def judge(unit: KernelUnit, instruction: str, reasoning: str) -> list[Diagnostic]:
        key = (unit.unit_id, reasoning)
        if key not in memo:
            memo[key] = run_verifiers(verifiers, unit, instruction, reasoning)
        return list(memo[key])

    new_attempts: list[Attempt] = []
    per_unit: dict[str, list[tuple[int, list[Diagnostic]]]] = {}
    for att in attempts:
        unit = units.get(att.unit_id)
        if att.verdict not in JUDGED or unit is None or not att.reasoning:
            new_attempts.append(att)
            continue
        diagnostics = judge(unit, instructions.get(att.unit_id, ""), att.reasoning)
        verdict = "accepted" if is_accepted(diagnostics) else "rejected"
        summary.attempts += 1
        per_unit.setdefault(att.unit_id, []).append((att.round, diagnostics))
        new_attempts.append(dataclasses.replace(att, verdict=verdict, diagnostics=diagnostics))

    new_annotations: list[Annotation] = []
    for ann in annotations:
        unit = units.get(ann.unit_id)
        if ann.verdict not in JUDGED or not ann.reasoning:
            summary.skipped += 1
            new_annotations.append(ann)
            continue
        if unit is None:
            summary.unknown_units += 1
            new_annotations.append(ann)
            continue
        final = judge(unit, ann.instruction, ann.reasoning)
        verdict = "accepted" if is_accepted(final) else "rejected"
        # As the loop records them: the findings of every round, the teacher's own failures
        # (unparsable answers, refusals) kept as they were.
        rounds = [d for _, found in sorted(per_unit.get(ann.unit_id, []), key=lambda r: r[0]) for d in found]
        kept = [d for d in ann.diagnostics if d.check.startswith(TEACHER_CHECK_PREFIX)]
        summary.annotations += 1
        summary.accepted += verdict == "accepted"
        summary.rejected += verdict == "rejected"
        summary.changed += verdict != ann.verdict
        new_annotations.append(
            dataclasses.replace(ann, verdict=verdict, diagnostics=kept + (rounds or final))
        )
    return new_annotations, new_attempts, summary
