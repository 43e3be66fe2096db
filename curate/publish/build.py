"""`curate build`: join units, dedup decisions, annotations and verification attempts into the
published rows and preference pairs.

What is published, and why:
- only units that dedup kept: never a `leak` (benchmark answers), never a `duplicate`; units with
  no decision (ingested after the last dedup) are left out and counted, never published blind;
- only annotations the verifier accepted (rejected ones only with `include_rejected`, as their
  own config), so nothing unverified slips into the training data;
- preference pairs: an accepted attempt and a rejected attempt of the same unit.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from annotate.statement import statement
from curate.publish.answer import without_licence_headers
from curate.publish.publish_config import BuildConfig
from curate.publish.split import SPLITS, operator_key, split_of
from schemas import (
    Annotation,
    Attempt,
    DatasetRow,
    Decision,
    KernelUnit,
    PreferencePair,
    oversized,
    stable_id,
)
from schemas.runs import AnnotateRun, StageRun, VerifyRun


@dataclass(slots=True)
class BuildResult:
    rows: list[DatasetRow]
    pairs: list[PreferencePair]
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class BuildInputs:
    """The workspace tables build joins (read by `curate.stages.build`)."""

    units: list[KernelUnit]
    decisions: list[Decision]
    annotations: list[Annotation]
    attempts: list[Attempt]
    runs: list[StageRun]


def build_rows(inputs: BuildInputs, config: BuildConfig) -> BuildResult:
    """What would be published from the tables (pure: reads and writes nothing)."""
    units = {u.unit_id: u for u in inputs.units}
    decisions = {d.unit_id: d for d in inputs.decisions}
    annotations = _latest_annotations(inputs.annotations)
    attempts = inputs.attempts
    by_unit: dict[str, list[Attempt]] = {}
    for attempt in attempts:
        by_unit.setdefault(attempt.unit_id, []).append(attempt)
    run_checks = checks_of_runs(inputs.runs)

    kept = [uid for uid in sorted(units) if _decision(decisions, uid) == "keep"]
    too_long = [uid for uid in kept if oversized(units[uid], config.max_unit_lines)]
    kept = [uid for uid in kept if not oversized(units[uid], config.max_unit_lines)]
    wanted = {"accepted", "rejected"} if config.include_rejected else {"accepted"}
    rows: list[DatasetRow] = []
    pairs: list[PreferencePair] = []
    for uid in kept:
        unit, annotation = units[uid], annotations.get(uid)
        if annotation is None:
            continue
        split = split_of(
            operator_key(unit.op_name, unit.kernel_name, uid), config.validation_ratio, config.split_salt
        )
        unit_attempts = sorted(by_unit.get(uid, []), key=lambda a: a.round)
        if annotation.verdict in wanted:
            rows.append(_row(unit, annotation, unit_attempts, run_checks, split))
        if annotation.verdict == "accepted":
            pairs.extend(_pairs(unit, annotation, unit_attempts, split))
    summary = _summary(config, units, decisions, annotations, kept, rows, pairs, len(attempts))
    summary["semantics_of_rows"] = dict(
        Counter(statement(units[r.id]).semantics for r in rows if r.id in units)
    )
    summary["oversized_units"] = len(too_long)  # kept by dedup, over max_unit_lines: not published
    return BuildResult(rows, pairs, summary)


def checks_of_runs(runs: list[StageRun]) -> list[str]:
    """The verifier checks the last verify (or annotate) run says it ran."""
    for run in reversed(runs):
        if isinstance(run, VerifyRun | AnnotateRun):
            return sorted(set(run.verifiers))
    return []


def _decision(decisions: dict[str, Decision], unit_id: str) -> str:
    found = decisions.get(unit_id)
    return found.decision if found else "undecided"


def _latest_annotations(annotations: list[Annotation]) -> dict[str, Annotation]:
    latest: dict[str, Annotation] = {}
    for annotation in sorted(annotations, key=lambda a: (a.unit_id, a.created_at)):
        latest[annotation.unit_id] = annotation
    return latest


def _row(
    unit: KernelUnit, ann: Annotation, attempts: list[Attempt], run_checks: list[str], split: str
) -> DatasetRow:
    checks = set(run_checks) | {d.check for d in ann.diagnostics if d.check}
    checks |= {d.check for a in attempts for d in a.diagnostics if d.check}
    rounds = max([ann.attempts, *(a.round for a in attempts)], default=0)
    return DatasetRow(
        id=unit.unit_id,
        instruction=ann.instruction,
        reasoning=ann.reasoning,
        answer=without_licence_headers(ann.answer or unit.code),
        op_name=unit.op_name,
        kernel_name=unit.kernel_name,
        category=unit.category,
        level=unit.level,
        core_type=unit.core_type,
        apis=list(unit.apis),
        source=unit.source,
        origin_url=unit.origin_url,
        commit=unit.commit,
        path=unit.path,
        license=unit.license,
        teacher_model=ann.teacher_model,
        prompt_version=ann.prompt_version,
        verifier=sorted(checks),
        verdict=ann.verdict,
        rounds=max(rounds, 1),
        prompt_tokens=ann.prompt_tokens,
        completion_tokens=ann.completion_tokens,
        diagnostics=list(ann.diagnostics),
        split=split,
    )


def _pairs(unit: KernelUnit, ann: Annotation, attempts: list[Attempt], split: str) -> list[PreferencePair]:
    accepted = [a for a in attempts if a.verdict == "accepted"]
    chosen_round, chosen = (
        (accepted[-1].round, accepted[-1].reasoning) if accepted else (ann.attempts, ann.reasoning)
    )
    pairs = []
    for attempt in attempts:
        if attempt.verdict != "rejected" or not attempt.reasoning.strip() or attempt.reasoning == chosen:
            continue
        pairs.append(
            PreferencePair(
                id=stable_id(unit.unit_id, str(chosen_round), str(attempt.round)),
                unit_id=unit.unit_id,
                instruction=ann.instruction,
                answer=without_licence_headers(ann.answer or unit.code),
                chosen=chosen,
                rejected=attempt.reasoning,
                chosen_round=chosen_round,
                rejected_round=attempt.round,
                rejected_checks=sorted({d.check for d in attempt.diagnostics if d.severity == "error"}),
                license=unit.license,
                split=split,
            )
        )
    return pairs


def _summary(
    config: BuildConfig,
    units: dict[str, KernelUnit],
    decisions: dict[str, Decision],
    annotations: dict[str, Annotation],
    kept: list[str],
    rows: list[DatasetRow],
    pairs: list[PreferencePair],
    attempts: int,
) -> dict[str, Any]:
    decided = Counter(_decision(decisions, uid) for uid in units)
    leaks = Counter(
        d.match_source or "?" for d in decisions.values() if d.decision == "leak" and d.unit_id in units
    )
    verdicts = Counter(annotations[uid].verdict if uid in annotations else "not annotated" for uid in kept)
    annotated = [annotations[uid] for uid in kept if uid in annotations]
    sources: dict[str, dict[str, Any]] = {}
    for unit in units.values():
        entry = sources.setdefault(
            unit.source, {"origin_url": unit.origin_url, "commit": unit.commit, "units": 0}
        )
        entry["units"] += 1
    return {
        "config": dataclasses.asdict(config),
        "units": len(units),
        "decisions": dict(sorted(decided.items())),
        "leaks_by_benchmark": dict(sorted(leaks.items())),
        "verdicts_of_kept_units": dict(sorted(verdicts.items())),
        "attempts": attempts,
        "rows": {
            verdict: sum(r.verdict == verdict for r in rows) for verdict in sorted({r.verdict for r in rows})
        },
        "rows_per_split": {s: sum(r.split == s for r in rows) for s in SPLITS},
        "operators_per_split": {
            s: len({operator_key(r.op_name, r.kernel_name, r.id) for r in rows if r.split == s})
            for s in SPLITS
        },
        "preference_pairs": len(pairs),
        "sources": dict(sorted(sources.items())),
        "teachers": dict(sorted(Counter(a.teacher_model for a in annotated).items())),
        "prompt_versions": dict(sorted(Counter(a.prompt_version for a in annotated).items())),
        "generation_params": sorted({a.generation_params for a in annotated if a.generation_params}),
        "tokens": {
            "prompt": sum(r.prompt_tokens for r in rows),
            "completion": sum(r.completion_tokens for r in rows),
        },
    }
