"""Entry points of the teacher: run one task's loop over its items with one journal and one client.

`run_task` is what every task goes through (the kernel task via `annotate_units`, which the CLI,
`curate verify`'s feedback runs and the tests call; the knowledge task from its stage): it opens
the journal, records the run, builds the one teacher client from the resolved configuration,
decides the answer format (`negotiate.choose_format`), runs `loop.AnnotationRun` with the task,
and always closes what it opened. A run the teacher stops (a refused key, a dead endpoint, a
refused model) returns its summary with `stopped` saying what to fix; the items done so far are
in the journal.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Generic, TypeVar

from annotate.config import AnnotateConfig
from annotate.context import ContextWindow
from annotate.journal import Journal
from annotate.limits import RateLimiter
from annotate.loop import AnnotationRun, ItemOutcome, ProgressCallback, RunSummary, now_iso
from annotate.negotiate import choose_format
from annotate.tasks import TeacherTask
from annotate.tasks.kernel_reasoning import KernelReasoningTask
from annotate.teacher import TeacherClient, TeacherFatal
from schemas import KernelUnit
from schemas.verdicts import Verifier

Item = TypeVar("Item")
Record = TypeVar("Record")


@dataclass(slots=True)
class TaskRun(Generic[Record]):
    summary: RunSummary
    outcomes: list[ItemOutcome[Record]] = field(default_factory=list)  # tasks without journal rows


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:8]


def teacher_client(config: AnnotateConfig, api_key: str) -> TeacherClient:
    """The one transport of a run: retries, backoff, rate limits and request slots from `config`."""
    return TeacherClient(
        base_url=config.base_url,
        api_key=api_key,
        model=config.model,
        timeout_s=config.timeout_s,
        retries=config.retries,
        backoff_base_s=config.backoff_base_s,
        backoff_max_s=config.backoff_max_s,
        limiter=RateLimiter(config.rpm, config.tpm),
        concurrency=config.concurrency,
    )


async def run_task_async(
    task: TeacherTask[Item, Record],
    items: Sequence[Item],
    config: AnnotateConfig,
    journal: Journal,
    api_key: str,
    progress: ProgressCallback | None = None,
) -> TaskRun[Record]:
    """Run `task` over `items` with a resolved `config`; the journal records everything as it happens."""
    run_id = new_run_id()
    journal.start_run(run_id, now_iso(), {**config.as_record(), "task": task.name})
    client = teacher_client(config, api_key)
    result: TaskRun[Record] = TaskRun(RunSummary(units=len(items), pending=len(items)))
    try:
        choice = await choose_format(config, client, journal, now_iso())
        source = "local" if config.teacher == "local" else "option"
        context = ContextWindow(config.context_tokens, source, config.base_url, api_key, config.model)
        run = AnnotationRun(config, task, journal, client, run_id, progress, choice, context)
        result = TaskRun(run.summary, run.outcomes)
        await run.run(items)
        return result
    except TeacherFatal as stop:
        result.summary.stopped = client.redact(stop.message)
        return result
    finally:
        result.summary.http_requests = client.stats.sent
        journal.finish_run(run_id, now_iso(), result.summary.as_dict())
        await client.close()


def run_task(
    task: TeacherTask[Item, Record],
    items: Sequence[Item],
    config: AnnotateConfig,
    journal_path: Path,
    api_key: str,
    progress: ProgressCallback | None = None,
) -> TaskRun[Record]:
    """The synchronous entry point: open the journal, run the loop, close the journal."""
    journal = Journal(journal_path)
    try:
        return asyncio.run(run_task_async(task, items, config.resolved(), journal, api_key, progress))
    finally:
        journal.close()


def kernel_task(config: AnnotateConfig, verifiers: Sequence[Verifier]) -> KernelReasoningTask:
    resolved = config.resolved()
    return KernelReasoningTask(
        resolved.prompt_style, resolved.compact_code_chars, resolved.max_tokens, verifiers
    )


def annotate_units(
    units: Sequence[KernelUnit],
    config: AnnotateConfig,
    verifiers: Sequence[Verifier],
    journal_path: Path,
    api_key: str,
    progress: ProgressCallback | None = None,
) -> RunSummary:
    """The kernel-reasoning task over `units`, judged by `verifiers`."""
    task = kernel_task(config, verifiers)
    return run_task(task, units, config, journal_path, api_key, progress).summary
