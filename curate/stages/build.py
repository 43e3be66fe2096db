"""The build stage: the workspace tables (units, dedup decisions, annotations, attempts, runs)
are read here, joined by `curate.publish.build.build_rows`, and the published rows, preference
pairs and build report written back, with the run recorded."""

from __future__ import annotations

import dataclasses
import json

from curate.publish.build import BuildInputs, BuildResult, build_rows
from curate.publish.publish_config import BuildConfig
from curate.stage import Stage
from curate.workspace import Workspace
from schemas import Annotation, Attempt, DatasetRow, Decision, KernelUnit, PreferencePair, read_records
from schemas.runs import BuildRun
from schemas.tables import write_text_atomic

READS = ("units", "decisions", "annotations")


def read_inputs(ws: Workspace) -> BuildInputs:
    ws.require_tables(READS)
    attempts = read_records(ws.attempts, Attempt) if ws.attempts.exists() else []
    return BuildInputs(
        read_records(ws.units, KernelUnit),
        read_records(ws.decisions, Decision),
        read_records(ws.annotations, Annotation),
        attempts,
        ws.runs(),
    )


def build_dataset(ws: Workspace, config: BuildConfig) -> BuildResult:
    """What `curate build` would publish from `ws` (writes nothing)."""
    return build_rows(read_inputs(ws), config)


def _build(ws: Workspace, config: BuildConfig) -> BuildResult:
    result = build_dataset(ws, config)
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
    ),
)


def run_build(ws: Workspace, config: BuildConfig) -> BuildResult:
    return BUILD.execute(ws, config)
