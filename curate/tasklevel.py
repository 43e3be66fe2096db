"""Task-level decontamination glue for `audit` and `dedup`: the task signatures of a test side
(from its PyTorch references or task texts, `parsers.torchref`), and the optional judge pass.

Kept apart from the stages so that they only call two functions: `task_index_for(items)` and
`judge_matches(...)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from curate.judge import TaskJudge
from dedup.tasks import TaskIndex, task_index
from parsers.torchref import read_reference, signature_from_text
from schemas import BenchmarkItem, KernelUnit
from schemas.tasks import TaskMatch, TaskSignature

TASK_LEAK_POLICIES = ("flag", "drop")


def task_signatures(items: Sequence[BenchmarkItem]) -> list[TaskSignature]:
    """One signature per item that states its task: its PyTorch reference, else its description."""
    sigs = []
    for i, item in enumerate(items):
        if item.reference.strip():
            sig = read_reference(item.task_name, item.reference)
        elif item.description.strip():
            sig = signature_from_text(item.task_name, item.description)
        else:
            continue
        sig.item = i
        sigs.append(sig)
    return sigs


def task_index_for(items: Sequence[BenchmarkItem]) -> TaskIndex | None:
    """The task index of a test side, None when no item states a task."""
    sigs = task_signatures(items)
    return task_index(sigs) if sigs else None


@dataclass(frozen=True, slots=True)
class JudgeSettings:
    """`--judge-url` / `--judge-model`: an OpenAI-compatible endpoint asked about each match."""

    url: str
    model: str
    cache: Path  # SQLite journal of verdicts, one per (model, pair)


JudgeUrlOption = Annotated[
    str | None,
    typer.Option(
        help="OpenAI-compatible endpoint asked 'does this kernel implement this reference?' about each "
        "task-level match (cached per pair; offline without it)."
    ),
]
JudgeModelOption = Annotated[str, typer.Option(help="Model name sent to --judge-url.")]


def judge_settings(url: str | None, model: str, cache: Path) -> JudgeSettings | None:
    return JudgeSettings(url, model, cache) if url else None


def judge_matches(
    matches: list[TaskMatch],
    units: Sequence[KernelUnit],
    items: Sequence[BenchmarkItem],
    settings: JudgeSettings | None,
) -> dict[str, int]:
    """Ask the judge about every task match (cached per pair); its verdict is stored on the match
    (`judge`: yes / no) and a "no" is not counted as a leak. Returns the judge's counters."""
    if settings is None or not matches:
        return {}
    judge = TaskJudge(settings.url, settings.model, settings.cache)
    try:
        for match in matches:
            item = items[match.item]
            reference = item.reference or item.description
            verdict = judge.verdict(units[match.unit].code, reference)
            match.judge = "" if verdict is None else ("yes" if verdict else "no")
    finally:
        judge.close()
    return judge.counts()
