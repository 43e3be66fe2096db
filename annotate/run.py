"""Entry points of the annotation stage: run the loop over units with a journal and a teacher.

`annotate_units` is what the CLI (and tests, and `curate verify`'s feedback runs) call: it opens
the journal, records the run, builds the teacher client from the resolved configuration, runs
`loop.AnnotationRun`, and always closes what it opened.
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
from annotate.teacher import TeacherClient
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
    run = AnnotationRun(config, verifiers, journal, client, run_id, progress)
    try:
        return await run.run(units)
    finally:
        journal.finish_run(run_id, now_iso(), run.summary.as_dict())
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
