"""The build stage: the workspace tables (units, dedup decisions, annotations, attempts, runs)
are read here, joined by `curate.publish.build.build_rows`, and the published rows, preference
pairs and build report written back, with the run recorded."""

from __future__ import annotations

import dataclasses
import json

from curate.publish.build import BuildInputs, BuildResult, build_rows
from curate.publish.publish_config import BuildConfig
from curate.selection import Subset, selected_ids
from curate.stage import Stage
from curate.workspace import Workspace
from schemas import Annotation, Attempt, DatasetRow, Decision, KernelUnit, PreferencePair, read_records
from schemas.atomic import write_text_atomic
from schemas.runs import BuildRun

READS = ("units", "decisions", "annotations")


def read_inputs(ws: Workspace, subset: Subset | None = None) -> BuildInputs:
    """The build's tables; with a subset, only the units it selects (the rows of the others are
    never built, so they are neither published nor counted)."""
    ws.require_tables(READS)
    chosen = selected_ids(ws, subset or Subset())
    attempts = read_records(ws.attempts, Attempt) if ws.attempts.exists() else []
    units = read_records(ws.units, KernelUnit)
    return BuildInputs(
        units if chosen is None else [u for u in units if u.unit_id in chosen],
        read_records(ws.decisions, Decision),
        read_records(ws.annotations, Annotation),
        attempts,
        ws.runs(),
    )


def build_dataset(ws: Workspace, config: BuildConfig, subset: Subset | None = None) -> BuildResult:
    """What `curate build` would publish from `ws` (writes nothing)."""
    return build_rows(read_inputs(ws, subset), config)


def _build(ws: Workspace, config: BuildConfig, subset: Subset | None = None) -> BuildResult:
    result = build_dataset(ws, config, subset)
    if subset is not None and subset.given():
        # The card and the run record say the dataset holds a chosen part of the workspace.
        result.summary["selection"] = subset.describe()
    ws.write_table("dataset", DatasetRow, result.rows)
    ws.write_table("preference", PreferencePair, result.pairs)
    write_text_atomic(ws.build_report, json.dumps(result.summary, indent=2, sort_keys=True) + "\n")
    return result


BUILD: Stage[BuildResult] = Stage(
    "build",
    _build,
    config=BuildConfig,
    reads=READS,
    writes=("dataset", "preference"),
    existing_workspace=True,
    record=lambda config, result: BuildRun(
        config=dataclasses.asdict(config),
        rows=len(result.rows),
        preference_pairs=len(result.pairs),
        rows_per_split=result.summary["rows_per_split"],
        selection=result.summary.get("selection", ""),
    ),
)


def run_build(ws: Workspace, config: BuildConfig, subset: Subset | None = None) -> BuildResult:
    return BUILD.execute(ws, config, subset)
