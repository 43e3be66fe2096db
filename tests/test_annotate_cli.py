"""`curate annotate` as a user runs it: configuration, unit selection, export, bad input, the API
key never written anywhere, and a SIGKILL in the middle of a run followed by a resume."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from annotate.negotiate import PROBE_MESSAGES
from curate.cli import app
from schemas import Annotation, Decision, read_records, write_records
from schemas.records import KernelUnit
from tests.servers.openai_server import OpenAIServer, Reply
from tests.test_annotate_task import make_unit

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def server() -> Any:
    with OpenAIServer() as srv:
        yield srv


def workspace_with_units(root: Path, count: int) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    write_records(root / "units.parquet", KernelUnit, [make_unit(i) for i in range(count)])
    return root


def curate(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "curate.cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=cwd or REPO,
        timeout=120,
    )


def start_curate(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "curate.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )


def test_config_file_env_and_options_reach_the_requests(
    server: OpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = workspace_with_units(tmp_path / "ws", 3)
    (tmp_path / "curate.toml").write_text(
        '[annotate]\nmodel = "toml-model"\nconcurrency = 2\ntemperature = 0.1\n'
    )
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        app,
        ["annotate", "-w", str(ws), "--base-url", server.url, "--max-tokens", "321", "--json"],
        env={"CURATE_TEMPERATURE": "0.5"},
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output.strip().splitlines()[-1])
    assert {k: summary[k] for k in ("requested", "cached", "accepted", "rejected", "failed")} == {
        "requested": 3,
        "cached": 0,
        "accepted": 3,
        "rejected": 0,
        "failed": 0,
    }
    assert summary["prompt_tokens"] > 0 and summary["completion_tokens"] > 0
    # One probe picked the answer format (the server takes json_schema), then one request per unit.
    assert (summary["response_format"], summary["response_format_source"], summary["http_requests"]) == (
        "json_schema",
        "probe",
        4,
    )
    probe, body = server.chat_requests()[0].body, server.chat_requests()[-1].body
    assert probe["messages"] == PROBE_MESSAGES and probe["response_format"]["type"] == "json_schema"
    assert (body["model"], body["temperature"], body["max_tokens"]) == ("toml-model", 0.5, 321)
    meta = json.loads((ws / "meta.json").read_text())
    [run] = [r for r in meta["runs"] if r["stage"] == "annotate"]
    assert run["config"]["model"] == "toml-model" and run["summary"]["accepted"] == 3
    assert run["summary"]["response_format"] == "json_schema"


def test_only_units_kept_by_dedup_are_annotated_and_export_only_rebuilds(
    server: OpenAIServer, tmp_path: Path
) -> None:
    ws = workspace_with_units(tmp_path / "ws", 4)
    decisions = [Decision(f"unit{i:04d}", "keep") for i in range(3)] + [Decision("unit0003", "leak")]
    write_records(ws / "decisions.parquet", Decision, decisions)
    runner = CliRunner()
    result = runner.invoke(
        app,
        [
            "annotate",
            "-w",
            str(ws),
            "--base-url",
            server.url,
            "--model",
            "m",
            "--price-in",
            "2",
            "--price-out",
            "8",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "3 accepted" in result.output and ", cost 0.0" in result.output
    annotated = {a.unit_id for a in read_records(ws / "annotations.parquet", Annotation)}
    assert annotated == {"unit0000", "unit0001", "unit0002"}

    (ws / "annotations.parquet").unlink()
    (ws / "attempts.parquet").unlink()
    result = runner.invoke(app, ["annotate", "-w", str(ws), "--export-only", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"annotations": 3, "attempts": 3, "accepted": 3}
    assert pq.read_table(ws / "attempts.parquet").num_rows == 3
    assert server.chat_count() == 4  # the format probe and one request per unit


@pytest.mark.parametrize(
    ("setup", "args", "env", "message"),
    [
        ("none", [], {}, "units.parquet does not exist: run `curate ingest`"),
        (
            "units",
            ["--base-url", "https://api.example.com/v1"],
            {"OPENAI_API_KEY": ""},
            "the API key is not set",
        ),
        ("units", ["--response-format", "xml"], {}, "response_format must be one of"),
        ("garbage-journal", ["--base-url", "http://127.0.0.1:9/v1"], {}, "not a usable annotation journal"),
        ("units", ["--export-only"], {}, "annotate.sqlite does not exist"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, setup: str, args: list[str], env: dict[str, str], message: str
) -> None:
    ws = tmp_path / "ws"
    if setup != "none":
        workspace_with_units(ws, 1)
    if setup == "garbage-journal":
        (ws / "annotate.sqlite").write_bytes(b"this is not a database" * 100)
    result = curate("annotate", "-w", str(ws), *args, env=env)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert not (ws / "annotations.parquet").exists() or setup == "garbage-journal"


def _all_text_of(root: Path) -> bytes:
    """Every byte under `root`, with parquet files decoded (their pages are compressed)."""
    chunks = []
    for path in root.rglob("*"):
        if path.is_file():
            chunks.append(path.read_bytes())
            if path.suffix == ".parquet":
                chunks.append(json.dumps(pq.read_table(path).to_pylist(), default=str).encode())
    return b"\n".join(chunks)


def test_api_key_is_used_but_never_written_or_printed(server: OpenAIServer, tmp_path: Path) -> None:
    key = f"sk-curate-test-{uuid.uuid4().hex}"
    env = {"CURATE_TEST_TEACHER_KEY": key}
    ws = workspace_with_units(tmp_path / "ws", 3)
    ok = curate(
        "annotate",
        "-w",
        str(ws),
        "--base-url",
        server.url,
        "--api-key-env",
        "CURATE_TEST_TEACHER_KEY",
        env=env,
    )
    assert ok.returncode == 0, ok.stderr
    assert {r.headers.get("authorization") for r in server.chat_requests()} == {f"Bearer {key}"}

    # A server that echoes the key in its error must not get it printed or stored either.
    server.script = lambda request: Reply.error(401, f"invalid key {key}")
    refused = curate(
        "annotate", "-w", str(ws), "--base-url", server.url, "--model", "other", "--api-key-env",
        "CURATE_TEST_TEACHER_KEY", env=env,
    )  # fmt: skip
    assert refused.returncode == 2 and "refused the API key" in refused.stderr
    assert "[redacted]" in refused.stderr

    outputs = (ok.stdout + ok.stderr + refused.stdout + refused.stderr).encode()
    assert key.encode() not in outputs
    everything = _all_text_of(tmp_path)
    assert b"CURATE_TEST_TEACHER_KEY" in everything  # the variable's name is recorded...
    assert key.encode() not in everything  # ...its value never
    with sqlite3.connect(ws / "annotate.sqlite") as db:
        dump = "\n".join(db.iterdump())
    assert key not in dump


def _journaled_conversations(journal: Path) -> set[str]:
    with sqlite3.connect(journal) as db:
        requests = [json.loads(r) for (r,) in db.execute("SELECT request FROM responses")]
    return {json.dumps(r["messages"], sort_keys=True) for r in requests}


def test_sigkill_mid_run_then_resume_sends_no_duplicate(server: OpenAIServer, tmp_path: Path) -> None:
    units = 40
    ws = workspace_with_units(tmp_path / "ws", units)
    server.default = lambda request: Reply(delay_s=0.08)
    args = (
        "annotate",
        "-w",
        str(ws),
        "--base-url",
        server.url,
        "--model",
        "m",
        "--concurrency",
        "4",
        "--json",
    )
    process = start_curate(*args)
    journal = ws / "annotate.sqlite"
    deadline = time.monotonic() + 60
    journaled = 0
    while time.monotonic() < deadline and journaled < 12:
        time.sleep(0.02)
        if journal.exists():
            try:
                with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
                    journaled = db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]
            except sqlite3.OperationalError:
                continue  # the schema is being created
    assert process.poll() is None, process.communicate()
    process.send_signal(signal.SIGKILL)
    process.communicate()
    assert process.returncode == -signal.SIGKILL

    kept = _journaled_conversations(journal)
    sent_before_kill = server.chat_count()
    probes = sum(1 for r in server.chat_requests() if r.messages == PROBE_MESSAGES)
    lost_in_flight = sent_before_kill - probes - len(kept)
    assert len(kept) >= 12 and 0 <= lost_in_flight <= 4  # at most the requests in flight

    server.default = lambda request: Reply()
    rerun = curate(*args)
    assert rerun.returncode == 0, rerun.stderr
    summary = json.loads(rerun.stdout)
    resent = server.chat_requests()[sent_before_kill:]  # no probe: the journal knows the format
    duplicates = [r for r in resent if json.dumps(r.messages, sort_keys=True) in kept]
    assert duplicates == []
    assert summary["cached"] == len(kept) and summary["requested"] == units - len(kept) == len(resent)
    annotations = read_records(ws / "annotations.parquet", Annotation)
    assert len(annotations) == units and {a.verdict for a in annotations} == {"accepted"}
    print(
        f"\nresume figures: {len(kept)} responses journaled before SIGKILL, {lost_in_flight} lost in flight, "
        f"{len(resent)} sent by the rerun, {len(duplicates)} duplicates, {units} units accepted"
    )
