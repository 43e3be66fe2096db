"""Entry points of the annotation stage: run the loop over units with a journal and a teacher.

`annotate_units` is what the CLI (and tests, and `curate verify`'s feedback runs) call: it opens
the journal, records the run, builds the teacher client from the resolved configuration, decides
the answer format (`negotiate.choose_format`), runs `loop.AnnotationRun`, and always closes what it
opened. A run the teacher stops (a refused key, a dead endpoint, a refused model) returns its
summary with `stopped` saying what to fix; the units done so far are in the journal.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from annotate.config import AnnotateConfig
from annotate.journal import Journal
from annotate.limits import RateLimiter
from annotate.loop import AnnotationRun, ProgressCallback, RunSummary, now_iso
from annotate.negotiate import choose_format
from annotate.teacher import TeacherClient, TeacherFatal
from schemas import KernelUnit
from schemas.verdicts import Verifier


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:8]


async def annotate_async(
    units: Sequence[KernelUnit],
    config: AnnotateConfig,
    verifiers: Sequence[Verifier],
    journal: Journal,
    api_key: str,
    progress: ProgressCallback | None = None,
) -> RunSummary:
    """Annotate `units` with a resolved `config`; the journal records everything as it happens."""
    run_id = new_run_id()
    journal.start_run(run_id, now_iso(), config.as_record())
    limiter = RateLimiter(config.rpm, config.tpm)
    client = TeacherClient(
        base_url=config.base_url,
        api_key=api_key,
        model=config.model,
        timeout_s=config.timeout_s,
        retries=config.retries,
        backoff_base_s=config.backoff_base_s,
        backoff_max_s=config.backoff_max_s,
        limiter=limiter,
        concurrency=config.concurrency,
    )
    summary = RunSummary(units=len(units), pending=len(units))
    try:
        choice = await choose_format(config, client, journal, now_iso())
        run = AnnotationRun(config, verifiers, journal, client, run_id, progress, choice)
        summary = run.summary
        return await run.run(units)
    except TeacherFatal as stop:
        summary.stopped = client.redact(stop.message)
        return summary
    finally:
        summary.http_requests = client.stats.sent
        journal.finish_run(run_id, now_iso(), summary.as_dict())
        await client.close()


def annotate_units(
    units: Sequence[KernelUnit],
    config: AnnotateConfig,
    verifiers: Sequence[Verifier],
    journal_path: Path,
    api_key: str,
    progress: ProgressCallback | None = None,
) -> RunSummary:
    """The synchronous entry point: open the journal, run the loop, close the journal."""
    journal = Journal(journal_path)
    try:
        return asyncio.run(annotate_async(units, config.resolved(), verifiers, journal, api_key, progress))
    finally:
        journal.close()
