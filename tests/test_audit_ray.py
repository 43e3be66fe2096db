"""`--engine ray` runs the same shard functions on Ray Data (a local runtime here, no cluster)
and gives a report identical to the local engine's on the same input, row for row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="the [ray] extra is installed by `make test`")

from curate.stages.audit import Side, run_audit_stage  # noqa: E402
from dedup.config import DedupConfig  # noqa: E402
from tests.conftest import EXAMPLES  # noqa: E402
from tests.test_audit_text import alpaca  # noqa: E402, F401  (the fixture)


def both(train: Side, test: Side, tmp_path: Path, shard_rows: int) -> tuple[dict, dict]:
    cfg = DedupConfig(abstract_identifiers=True)
    reports = {}
    for engine in ("local", "ray"):
        run_audit_stage(train, test, cfg, tmp_path / engine, engine=engine, shard_rows=shard_rows)
        reports[engine] = json.loads((tmp_path / engine / "leakage.json").read_text())
    return reports["local"], reports["ray"]


def test_ray_equals_local_on_text_blocks(ray_runtime, alpaca, tmp_path: Path) -> None:  # noqa: F811
    path, planted = alpaca
    local, on_ray = both(
        Side(str(path), "output", None, "auto"), Side(str(EXAMPLES / "benchmark")), tmp_path, shard_rows=3
    )
    assert local["leaks"] and local == on_ray
    assert {(lk["row_id"], lk["block"], lk["task_name"]) for lk in on_ray["leaks"]} >= set(planted)


def test_ray_equals_local_on_a_code_directory(ray_runtime, tmp_path: Path) -> None:
    local, on_ray = both(
        Side(str(EXAMPLES / "corpus")), Side(str(EXAMPLES / "benchmark")), tmp_path, shard_rows=16
    )
    assert local["counts"]["leaks"] >= 7 and local == on_ray
