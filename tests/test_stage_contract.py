"""The stage contract and the executor: a stage's declared inputs are checked with one "run X
first" line, a stage cannot write a table it did not declare, every config option comes from its
field (one default, one help), and the band-shuffle dedup engine gives the local engine's edges
on the local executor too (the Ray runs of the same engine are in test_dedup_ray.py)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from curate.commands.config_options import option_fields
from curate.errors import UserError
from curate.executor import LocalExecutor
from curate.stage import Stage
from curate.stages.catalog import STAGES, producer
from curate.workspace import Workspace
from dedup.bands import BandShuffleEngine
from dedup.config import DedupConfig
from dedup.decide import LOCAL
from schemas import Decision


def test_a_missing_input_names_the_command_that_writes_it(tmp_path: Path) -> None:
    from curate.stages.dedup import run_dedup_stage

    with pytest.raises(
        UserError, match=r"units.parquet does not exist: run `curate ingest` on this workspace"
    ):
        run_dedup_stage(Workspace(tmp_path / "ws"), DedupConfig())
    assert producer("benchmark") == "ingest --benchmark"
    assert producer("knowledge") == "annotate --task knowledge"


def test_every_table_a_stage_reads_is_written_by_a_declared_stage() -> None:
    written = {table for stage in STAGES for table in stage.writes}
    for stage in STAGES:
        assert set(stage.reads) <= written, stage.name


def test_a_stage_cannot_write_a_table_it_did_not_declare(tmp_path: Path) -> None:
    def sneaky(ws: Workspace, config: None) -> int:
        ws.write_table("decisions", Decision, [])
        return 0

    stage: Stage[int] = Stage("sneaky", sneaky, writes=("units",))
    with pytest.raises(RuntimeError, match="does not name"):
        stage.execute(Workspace(tmp_path / "ws"), None)
    assert not (tmp_path / "ws" / "decisions.parquet").exists()
    allowed: Stage[int] = Stage("allowed", sneaky, writes=("decisions",))
    assert allowed.execute(Workspace(tmp_path / "ws"), None) == 0


def test_dedup_options_come_from_the_config_fields() -> None:
    fields = {f.name: f for f in option_fields(DedupConfig)}
    assert set(fields) == {
        "threshold",
        "containment",
        "num_perm",
        "ngram",
        "abstract_identifiers",
        "drop_name_matches",
        "full_evidence",
        "task_leaks",
        "judge_url",
        "judge_model",
        "judge_concurrency",
    }
    assert fields["threshold"].default == 0.7 and fields["threshold"].metadata["help"]


def test_the_band_shuffle_engine_on_the_local_executor_confirms_the_local_edges() -> None:
    rng = random.Random(3)
    base = [f"v{rng.randrange(99)} = v{rng.randrange(99)} + {k};" for k in range(80)]
    codes = []
    for k in range(30):
        body = list(base) if k % 3 == 0 else [f"w{rng.randrange(999)} = {j};" for j in range(60)]
        if k % 3 == 0:
            body[k % 80] = f"changed{k} = 1;"
        codes.append("\n".join(body))
    for k in range(5):  # pairs: buckets of exactly two members
        body = [f"p{k}_{rng.randrange(999)} = {j};" for j in range(60)]
        codes += ["\n".join(body), "\n".join([*body[:-1], f"edited{k} = 0;"])]
    cfg = DedupConfig()
    engine = BandShuffleEngine(LocalExecutor(), shard_rows=7)
    corpus = engine.shingle(codes, cfg)
    local_corpus = LOCAL.shingle(codes, cfg)
    assert np.array_equal(corpus.indptr, local_corpus.indptr) and np.array_equal(corpus.fps, local_corpus.fps)
    docs = np.arange(len(codes), dtype=np.int64)
    sig = engine.sign(corpus, cfg)
    assert np.array_equal(sig, LOCAL.sign(local_corpus, cfg))
    edges, scored = engine.confirm(sig, docs, corpus, cfg)
    local_edges, local_scored = LOCAL.confirm(sig, docs, local_corpus, cfg)
    assert set(edges) == set(local_edges) and scored == local_scored  # local lists a pair per bucket
    assert len(set(edges)) >= 9 + 5  # the ten near-copies of `base` are linked, and each pair
