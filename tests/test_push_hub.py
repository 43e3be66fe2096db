"""`curate push --repo-id` against a Hub-compatible server on loopback, with the real
huggingface_hub client (Git LFS path, multipart included), read back with datasets.load_dataset;
one commit per push, nothing half-published when an upload fails, the token never written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import huggingface_hub.constants
import pytest

from curate.errors import UserError
from curate.publish import BuildConfig, PushConfig
from curate.publish.formats import config_tables
from curate.stages.build import run_build
from curate.stages.push import _load_build, run_push
from tests.servers.hub_server import HubServer
from tests.test_publish_workspace import make_workspace

TOKEN = "hf_RoundTripTokenForTheLoopbackHub0123456789"
REPO = "ascend-org/ascend-cot"
ALLOW = ["--allow-license", "CANN-2.0", "--allow-license", "Apache-2.0"]

LOADER = """
import json, sys
import datasets
datasets.disable_progress_bars()
repo, cache, configs = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
out = {}
for name in configs:
    loaded = datasets.load_dataset(repo, name=name, cache_dir=cache)
    out[name] = {split: loaded[split].to_list() for split in loaded}
print(json.dumps(out))
"""


@pytest.fixture
def hub() -> Iterator[HubServer]:
    with HubServer(token=TOKEN, multipart_chunk=8 * 1024) as server:
        yield server


def _env(hub: HubServer, tmp_path: Path, token: str | None = TOKEN) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGING"))}
    env.update(
        HF_ENDPOINT=hub.url,
        HF_HUB_DISABLE_XET="1",
        HF_HOME=str(tmp_path / "hf-home"),
        HF_HUB_DISABLE_TELEMETRY="1",
    )
    if token:
        env["HF_TOKEN"] = token
    return env


def _expected(ws) -> dict[str, dict[str, list[dict]]]:  # type: ignore[no-untyped-def,type-arg]
    rows, pairs, _ = _load_build(ws)
    tables = config_tables(rows, pairs, ["raw", "alpaca", "messages", "preference"])
    return {name: {split: t.to_pylist() for split, t in splits.items()} for name, splits in tables.items()}


def test_round_trip_through_the_real_client_and_datasets(hub: HubServer, tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    run_build(ws, BuildConfig(include_rejected=True))
    env = _env(hub, tmp_path)
    push = [
        sys.executable,
        "-m",
        "curate.cli",
        "push",
        "--workspace",
        str(ws.root),
        "--repo-id",
        REPO,
        *ALLOW,
    ]
    push += [
        "--to-dir",
        str(tmp_path / "out"),
        "--shard-rows",
        "4",
        "--commit-message",
        "Ascend-CoT test release",
    ]
    done = subprocess.run(push, capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"committed: {hub.url}/datasets/{REPO}/commit/" in done.stdout

    # the Hub holds exactly what --to-dir wrote, in one commit after the initial one
    on_hub = hub.files(REPO)
    local = {
        p.relative_to(tmp_path / "out").as_posix(): p.read_bytes()
        for p in (tmp_path / "out").rglob("*")
        if p.is_file()
    }
    assert {k: v for k, v in on_hub.items() if k != ".gitattributes"} == local
    assert len(hub.repo(REPO).commits) == 2  # type: ignore[union-attr]
    assert sum(1 for p in local if p.startswith("data/raw/train-")) == 3  # 9 rows in shards of 4
    paths = [path for _, path, _ in hub.state.requests]
    assert any("/part/" in p for p in paths), "large shards should take the multipart LFS path"
    assert any(p.endswith("/info/lfs/objects/batch") for p in paths) and "/lfs/verify" in paths
    writes = [
        auth for method, path, auth in hub.state.requests if path.startswith(("/api/datasets", "/api/repos"))
    ]
    assert writes and all(auth == f"Bearer {TOKEN}" for auth in writes)

    # datasets reads every config back from the Hub, row for row
    configs = ["raw", "alpaca", "messages", "preference", "rejected"]
    load = [sys.executable, "-c", LOADER, REPO, str(tmp_path / "cache"), ",".join(configs)]
    loaded = subprocess.run(
        load, capture_output=True, text=True, env=_env(hub, tmp_path, token=None), timeout=120
    )
    assert loaded.returncode == 0, loaded.stderr[-3000:]
    got = json.loads(loaded.stdout.strip().splitlines()[-1])
    expected = _expected(ws)
    rows, _, _ = _load_build(ws)
    expected["rejected"] = {
        split: [r for r in table.to_pylist()]
        for split, table in config_tables(rows, [], ["raw"])["rejected"].items()
    }
    assert got == expected

    # the token was used, and written nowhere: workspace, export, caches, output
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert TOKEN.encode() not in path.read_bytes(), path
    assert TOKEN not in done.stdout + done.stderr + loaded.stdout + loaded.stderr
    assert all(TOKEN.encode() not in data for data in on_hub.values())
    assert TOKEN not in json.dumps(ws.meta())


@pytest.fixture
def in_process(hub: HubServer, monkeypatch: pytest.MonkeyPatch) -> HubServer:
    """Push from this process: the endpoint and token come from the environment at call time."""
    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_DISABLE_XET", True)
    return hub


def _config(**overrides: object) -> PushConfig:
    config = PushConfig(repo_id=REPO, allow_license=["CANN", "Apache-2.0"], shard_rows=4)
    for key, value in overrides.items():
        setattr(config, key, value)
    return config


@pytest.mark.parametrize("fault", ["lfs_upload", "commit"])
def test_a_failed_upload_publishes_nothing_and_says_what_to_rerun(
    in_process: HubServer, tmp_path: Path, fault: str
) -> None:
    hub = in_process
    ws = make_workspace(tmp_path / "ws")
    run_build(ws, BuildConfig())
    run_push(ws, _config(), rerun="curate push")
    before = hub.files(REPO)
    head = hub.repo(REPO).branches["main"]  # type: ignore[union-attr]

    run_build(ws, BuildConfig(include_rejected=True, validation_ratio=0.5))  # a new version to publish
    hub.faults.add(fault)
    with pytest.raises(UserError) as failed:
        run_push(ws, _config(), rerun=f"curate push --workspace {ws.root} --repo-id {REPO}")
    message = str(failed.value)
    assert "while uploading and committing" in message and "no commit was made" in message
    assert f"re-run: curate push --workspace {ws.root} --repo-id {REPO}" in message
    assert TOKEN not in message
    assert hub.repo(REPO).branches["main"] == head and hub.files(REPO) == before  # type: ignore[union-attr]
    assert ws.meta()["runs"][-1]["stage"] == "build"  # a failed push is not recorded as done

    hub.faults.clear()
    run_push(ws, _config(), rerun="curate push")  # the re-run completes the publication
    assert any(p.startswith("data/rejected/") for p in hub.files(REPO))


def test_a_failed_first_push_leaves_a_repository_without_data(in_process: HubServer, tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    run_build(ws, BuildConfig())
    in_process.faults.add("lfs_upload")
    with pytest.raises(UserError, match="no commit was made"):
        run_push(ws, _config(), rerun="curate push")
    assert set(in_process.files(REPO)) == {".gitattributes"}  # load_dataset finds no data, not half of it


def test_each_push_is_one_commit_that_also_drops_stale_shards(in_process: HubServer, tmp_path: Path) -> None:
    hub = in_process
    ws = make_workspace(tmp_path / "ws")
    run_build(ws, BuildConfig())
    run_push(ws, _config(shard_rows=2), rerun="curate push")
    assert "data/raw/train-00004-of-00005.parquet" in hub.files(REPO)
    commits = len(hub.repo(REPO).commits)  # type: ignore[union-attr]
    run_push(ws, _config(shard_rows=50), rerun="curate push")
    raw = sorted(p for p in hub.files(REPO) if p.startswith("data/raw/"))
    assert raw == ["data/raw/train-00000-of-00001.parquet", "data/raw/validation-00000-of-00001.parquet"]
    assert len(hub.repo(REPO).commits) == commits + 1  # type: ignore[union-attr]


def test_push_to_a_branch_leaves_main_alone_and_private_repositories_stay_private(
    in_process: HubServer, tmp_path: Path
) -> None:
    hub = in_process
    ws = make_workspace(tmp_path / "ws")
    run_build(ws, BuildConfig())
    outcome = run_push(ws, _config(revision="v2-candidate", private=True), rerun="curate push")
    repo = hub.repo(REPO)
    assert repo is not None and repo.private
    assert set(hub.files(REPO, "main")) == {".gitattributes"}
    assert "README.md" in hub.files(REPO, "v2-candidate")
    run = ws.meta()["runs"][-1]
    assert (
        run["stage"] == "push"
        and run["revision"] == "v2-candidate"
        and run["commit_url"] == outcome.commit_url
    )


def test_push_without_a_token_stops_with_one_line(hub: HubServer, tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    run_build(ws, BuildConfig())
    cmd = [sys.executable, "-m", "curate.cli", "push", "--workspace", str(ws.root), "--repo-id", REPO, *ALLOW]
    done = subprocess.run(
        cmd, capture_output=True, text=True, env=_env(hub, tmp_path, token=None), timeout=60
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "no Hugging Face token: set HF_TOKEN" in done.stderr and hub.repo(REPO) is None
