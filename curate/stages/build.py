"""The build stage: workspace tables -> the published rows and preference pairs, with the run
recorded."""

from __future__ import annotations

import dataclasses

from curate.publish.build import BuildResult, build_dataset, write_build
from curate.publish.config import BuildConfig
from curate.stages.push import existing
from curate.workspace import Workspace
from schemas.runs import BuildRun


def run_build(ws: Workspace, config: BuildConfig) -> BuildResult:
    with existing(ws).locked():
        result = build_dataset(ws, config)
        write_build(ws, result)
        ws.record_run(
            BuildRun(
                config=dataclasses.asdict(config),
                rows=len(result.rows),
                preference_pairs=len(result.pairs),
                rows_per_split=result.summary["rows_per_split"],
            )
        )
    return result
