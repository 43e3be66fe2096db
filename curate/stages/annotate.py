"""The annotate stage: select the units dedup kept, read the API key, reach the teacher (or start
the local one), run the annotation loop with the [verify] verifiers, and export the journal to
annotations.parquet / attempts.parquet (also after a failure or Ctrl-C: partial results are
results). The API key is read from the environment variable named by `api_key_env` and is never
written anywhere.

Exit statuses of `curate annotate`: 0 when every selected unit was judged (accepted or rejected),
`UNITS_FAILED_EXIT` (3) when the run finished but some units failed (the failure summary says why),
2 when the run was stopped (dead endpoint, refused key or model) or could not start."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass

from annotate.config import AnnotateConfig
from annotate.export import ExportCounts, export_tables
from annotate.journal import JournalError
from annotate.local_teacher import LocalTeacher, LocalTeacherError
from annotate.loop import ProgressCallback, RunSummary
from annotate.reasoning import VerifyConfig, default_verifiers, verifier_names
from annotate.run import annotate_units
from curate.errors import UserError
from curate.selection import Subset, selected_ids
from curate.workspace import Workspace
from schemas import Decision, KernelUnit, oversized, read_records
from schemas.runs import AnnotateRun

LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}
NO_KEY = "no-key-needed"  # what local servers get when no key is configured (they ignore it)
UNITS_FAILED_EXIT = 3  # the run finished, but some selected units have no judged answer


@dataclass(slots=True)
class AnnotateOutcome:
    summary: RunSummary
    counts: ExportCounts
    verifiers: str
    oversized: int = 0  # units dedup kept but over max_unit_lines: not annotated


@dataclass(slots=True)
class Selection:
    units: list[KernelUnit]
    oversized: int  # left out for being longer than max_unit_lines


def select_units(
    ws: Workspace, limit: int, max_unit_lines: int = 0, subset: Subset | None = None
) -> Selection:
    """The units to annotate: those of the subset flags (all when none was given), of them only
    those dedup kept, without those over `max_unit_lines` (counted); the first `limit` when given."""
    chosen = selected_ids(ws, subset or Subset())
    units = read_records(ws.units, KernelUnit)
    if chosen is not None:
        units = [u for u in units if u.unit_id in chosen]
    if ws.decisions.exists():
        keep = {d.unit_id for d in read_records(ws.decisions, Decision) if d.decision == "keep"}
        units = [u for u in units if u.unit_id in keep]
    fitting = [u for u in units if not oversized(u, max_unit_lines)]
    return Selection(fitting[:limit] if limit else fitting, len(units) - len(fitting))


def read_api_key(config: AnnotateConfig) -> str:
    """The key from the environment; loopback servers (local teacher, vLLM, llama.cpp) need none."""
    if config.teacher == "local":
        return NO_KEY  # never hand a real key to a server we started ourselves
    key = os.environ.get(config.api_key_env, "")
    if key:
        return key
    if (urllib.parse.urlparse(config.base_url).hostname or "") in LOOPBACK_HOSTS:
        return NO_KEY
    raise UserError(
        f"the API key is not set: export {config.api_key_env}=<key> (or name another variable with --api-key-env)"
    )


@contextlib.contextmanager
def teacher_endpoint(
    config: AnnotateConfig, record: dict[str, object] | None = None
) -> Iterator[AnnotateConfig]:
    """The config pointing at the teacher: as given, or at a local llama.cpp server run for the block.
    `record` is filled with the configuration as the run really used it (the local server's real
    endpoint and model), for meta.json and the dataset card."""
    record = {} if record is None else record
    if config.teacher != "local":
        record.update(config.as_record())
        yield config
        return
    try:
        with LocalTeacher(config) as local:
            endpoint = dataclasses.replace(config, base_url=local.base_url, model=local.model_alias)
            record.update(endpoint.as_record(), **local.describe())
            yield endpoint
    except LocalTeacherError as exc:
        raise UserError(str(exc)) from None


def export_journal(ws: Workspace) -> ExportCounts:
    """Rewrite annotations.parquet and attempts.parquet from the journal."""
    try:
        return export_tables(ws.journal, ws.annotations, ws.attempts)
    except JournalError as exc:
        raise UserError(str(exc)) from None


def run_export_only(ws: Workspace) -> ExportCounts:
    ws.require("journal")
    with ws.locked():
        return export_journal(ws)


def run_annotate(
    ws: Workspace,
    config: AnnotateConfig,
    verify_config: VerifyConfig,
    progress: contextlib.AbstractContextManager[ProgressCallback | None] | None = None,
    subset: Subset | None = None,
) -> AnnotateOutcome:
    """Annotate the selected units of `ws` with a resolved `config`; `progress` is a context
    manager yielding the loop's progress callback (a progress bar), or None; `subset` the subset
    flags (checked, and an empty selection refused, before the teacher is reached)."""
    ws.require_inputs("annotate")
    selection = select_units(ws, config.limit, config.max_unit_lines, subset)
    units = selection.units
    if not units:
        too_long = (
            f" ({selection.oversized} over max_unit_lines={config.max_unit_lines})"
            if selection.oversized
            else ""
        )
        chosen = f" of the selection {subset.describe()}" if subset and subset.given() else ""
        raise UserError(
            f"no units to annotate in {ws.root}: every unit{chosen} was dropped by dedup or is too long"
            f"{too_long}, or ingest found none"
        )
    api_key = read_api_key(config)
    verifiers = default_verifiers(verify_config)
    names = verifier_names(verifiers)
    summary: RunSummary | None = None
    used: dict[str, object] = {}  # the configuration as the run used it (the teacher's real endpoint)
    with ws.locked():
        try:
            with (
                teacher_endpoint(config, used) as endpoint,
                progress or contextlib.nullcontext() as bar,
            ):
                summary = annotate_units(units, endpoint, verifiers, ws.journal, api_key, progress=bar)
        except JournalError as exc:
            raise UserError(str(exc)) from None
        finally:
            # Partial results are results: export whatever the journal holds, even after a failure.
            counts = export_journal(ws) if ws.journal.exists() else ExportCounts(0, 0, {})
            ws.record_run(
                AnnotateRun(
                    config=used or config.as_record(),
                    completed=summary is not None and not summary.stopped,
                    summary=summary.as_dict() if summary else None,
                    verifiers=[v.name for v in verifiers],
                )
            )
    assert summary is not None  # the block above either set it or raised
    return AnnotateOutcome(summary, counts, names, selection.oversized)
