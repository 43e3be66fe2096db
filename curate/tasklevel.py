"""Task-level decontamination glue for `audit` and `dedup`: the task signatures of a test side
(from its PyTorch references or task texts, `parsers.torchref`), and the optional judge pass.

Kept apart from the stages so that they only call two functions: `task_index_for(items)` and
`judge_matches(...)`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from curate.judge import TaskJudge
from curate.report.task_leaks import task_markdown, task_records
from dedup.decide import task_counts
from dedup.tasks import JUDGE_CANDIDATES, TaskIndex, match_units, task_index, unit_document
from parsers.torchref import read_reference, signature_from_text
from schemas import BenchmarkItem, Decision, KernelUnit
from schemas.tasks import TaskMatch, TaskSignature


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


def task_index_for(items: Sequence[BenchmarkItem], judged: bool = False) -> TaskIndex | None:
    """The task index of a test side, None when no item states a task. `judged`: a judge will
    be asked, so semantics keeps its candidates (`dedup.tasks.JUDGE_CANDIDATES`)."""
    sigs = task_signatures(items)
    if not sigs:
        return None
    index = task_index(sigs)
    index.judge_candidates = JUDGE_CANDIDATES if judged else 0
    return index


@dataclass(frozen=True, slots=True)
class JudgeSettings:
    """`--judge-url` / `--judge-model`: an OpenAI-compatible endpoint asked about each match."""

    url: str
    model: str
    cache: Path  # SQLite journal of verdicts, one per (model, pair)
    concurrency: int = 4  # documents judged at once (each walks its own options in rank order)


def judge_settings(url: str | None, model: str, cache: Path, concurrency: int = 4) -> JudgeSettings | None:
    return JudgeSettings(url, model, cache, concurrency) if url else None


class MatchJudge:
    """The judge of one run, asked batch after batch (a streamed audit judges each shard's
    matches while the shard's units are in memory): one journal, one run of failures in a row,
    one set of counters. The journal is opened at the first batch with a match."""

    def __init__(self, settings: JudgeSettings) -> None:
        self.settings = settings
        self._judge: TaskJudge | None = None
        self._placed = 0

    def judge(
        self, matches: list[TaskMatch], units: Sequence[KernelUnit], items: Sequence[BenchmarkItem]
    ) -> None:
        """Ask about every match of `matches` (their `unit` indexes `units`); see `judge_matches`."""
        if not matches:
            return
        if self._judge is None:
            self._judge = TaskJudge(self.settings.url, self.settings.model, self.settings.cache)
        judge = self._judge

        def judge_one(match: TaskMatch) -> bool:
            """Walk one match's options; True when the judge's yes placed it (moved or a candidate)."""
            document = unit_document(units[match.unit])

            def ask(option: TaskMatch) -> bool | None:
                item = items[option.item]
                return judge.verdict(document, item.reference or item.description)

            confirmed = first_confirmed(match, ask)
            placed = confirmed is not None and (confirmed is not match or match.layer == "candidate")
            if confirmed is not None:
                _take(match, confirmed)
            match.alternatives = []
            return placed

        with ThreadPoolExecutor(max_workers=max(1, self.settings.concurrency)) as pool:
            self._placed += sum(pool.map(judge_one, matches))
        matches[:] = [m for m in matches if m.layer != "candidate"]

    def counts(self) -> dict[str, int]:
        """The judge's counters; {} when it was never asked (no match to ask about)."""
        if self._judge is None:
            return {}
        return {**self._judge.counts(), "task_matches_by_judge": self._placed}

    def close(self) -> None:
        if self._judge is not None:
            self._judge.close()


def judge_matches(
    matches: list[TaskMatch],
    units: Sequence[KernelUnit],
    items: Sequence[BenchmarkItem],
    settings: JudgeSettings | None,
) -> dict[str, int]:
    """Ask the judge about every task match (cached per pair). Its verdict is stored on the match
    (`judge`: yes / no); a "no" is not counted as a leak. A refused match's alternatives (the
    tasks semantics ranked next, `dedup.tasks.JUDGE_CANDIDATES`) are asked in turn, and the first
    "yes" places the document there (layer `judge`). A candidate no task of which the judge
    confirms is removed from `matches`. Returns the judge's counters."""
    if settings is None or not matches:
        return {}
    judge = MatchJudge(settings)
    try:
        judge.judge(matches, units, items)
    finally:
        judge.close()
    return judge.counts()


def first_confirmed(match: TaskMatch, ask: Callable[[TaskMatch], bool | None]) -> TaskMatch | None:
    """The first of `match` and its alternatives that `ask` (a judge) says yes to, each verdict
    stored on its option (`judge`: yes / no / "" for none); None when none is confirmed. A
    placed match the judge gives no verdict on stands unjudged: its alternatives are not asked."""
    for option in (match, *match.alternatives):
        verdict = ask(option)
        option.judge = "" if verdict is None else ("yes" if verdict else "no")
        if verdict:
            return option
        if verdict is None and match.layer != "candidate":
            return None
    return None


def _take(match: TaskMatch, confirmed: TaskMatch) -> None:
    """`match` placed on the task the judge confirmed (itself, or one of its alternatives)."""
    if confirmed is not match:
        match.item, match.level, match.score = confirmed.item, confirmed.level, confirmed.score
        match.matched_ops, match.shared_numbers = confirmed.matched_ops, confirmed.shared_numbers
        match.name = ""
    if confirmed is not match or match.layer == "candidate" or match.tied:
        match.layer, match.confidence = "judge", "high"
    match.judge, match.tied = "yes", []  # the judge chose among tied tasks


def dedup_task_leaks(
    units: Sequence[KernelUnit],
    items: Sequence[BenchmarkItem] | None,
    decisions: list[Decision],
    policy: str,
    report: dict[str, Any],
    judge: JudgeSettings | None = None,
) -> str:
    """`curate dedup`'s task-level pass: match every unit against the benchmark's tasks (the
    judge, when given, confirms or refuses each match and candidate), record the matches in
    `report` (`task_matches`, counts) and, with policy `drop`, mark each matched unit not already
    a leak as a leak of method `task-identity` / `task-semantics` / `task-judge`. Returns the
    Markdown section ("" when the benchmark states no task)."""
    index = task_index_for(items, judge is not None) if items else None
    if index is None or items is None:
        return ""
    matches = match_units(units, index)
    counts = judge_matches(matches, units, items, judge)
    counts.update(task_counts(matches))
    if policy == "drop":
        for match in matches:
            decision, item = decisions[match.unit], items[match.item]
            if decision.decision != "leak" and match.judge != "no":  # refused: listed, not a leak
                decisions[match.unit] = Decision(
                    decision.unit_id,
                    "leak",
                    "",
                    item.item_id,
                    item.benchmark,
                    item.path,
                    round(match.score, 6),
                    f"task-{match.layer}",
                    decision.name_match,
                )
    counts["task_leaks_dropped"] = sum(d.method.startswith("task-") for d in decisions)
    report["counts"].update(counts)
    report["task_leak_policy"] = policy
    report["task_matches"] = task_records(matches, units, items, index)
    return "\n".join(task_markdown(report["task_matches"], counts)) + "\n"
