"""Failures are loud and never destroy data, through the installed `curate` command: a grouped failure
summary and exit status 3 when units failed, `--json` says how many and why, a failed rerun never
replaces a judged answer, and a dead endpoint or a refused model stops the run with one line."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from annotate.journal import Journal, UnitResult
from annotate.local_teacher import free_port
from schemas import Annotation, Diagnostic, read_records, write_records
from schemas.records import KernelUnit
from tests.servers.openai_server import ChatRequest, OpenAIServer, Reply
from tests.test_annotate_task import make_unit

REPO = Path(__file__).resolve().parents[1]
CURATE = Path(sys.executable).with_name("curate")  # the console script of this environment
FAST = ("--retries", "2", "--concurrency", "1", "--timeout", "5")


@pytest.fixture
def server() -> Any:
    with OpenAIServer() as srv:
        yield srv


def workspace(root: Path, count: int) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    write_records(root / "units.parquet", KernelUnit, [make_unit(i) for i in range(count)])
    return root


def curate(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [str(CURATE), *args], capture_output=True, text=True, env=env, cwd=REPO, timeout=300, check=False
    )


def unit_index(request: ChatRequest) -> int:
    """Which test unit a request is about (make_unit(i) is the operator AddCustom<i>)."""
    text = json.dumps(request.messages)
    return next((i for i in range(10) if f"`AddCustom{i}`" in text), -1)


def test_failed_units_are_summarised_by_reason_and_exit_3(server: OpenAIServer, tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws", 4)

    def script(request: ChatRequest) -> Reply | None:
        index = unit_index(request)
        if index in (1, 2):  # a prompt over the server's context window
            return Reply.error(
                400, "This model's maximum context length is 2048 tokens (context_length_exceeded)"
            )
        if index == 3:
            return Reply.ok("I would rather write a poem about NPUs.")
        return None

    server.script = script
    args = (
        "annotate",
        "-w",
        str(ws),
        "--base-url",
        server.url,
        "--model",
        "m",
        "--format-retries",
        "1",
        *FAST,
    )
    done = curate(*args, "--json")
    assert done.returncode == 3, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["accepted"], summary["failed"], summary["units"]) == (1, 3, 4)
    assert [(f["reason"], f["count"]) for f in summary["failures"]] == [
        ("context window exceeded", 2),
        ("unusable answer: the answer is neither a JSON object with the section keys nor tagged sections", 1),
    ]
    assert summary["failures"][0]["example_unit"] in ("unit0001", "unit0002")
    assert "maximum context length" in summary["failures"][0]["example"]
    lines = done.stderr.strip().splitlines()
    assert lines[0] == "3 of 4 units failed:"
    assert lines[1].startswith("  2 x context window exceeded, e.g. unit unit000")
    assert lines[2].startswith("  1 x unusable answer: ")
    context_requests = [r for r in server.chat_requests() if unit_index(r) in (1, 2)]
    assert len(context_requests) == 2  # a refused request is never retried

    text = curate(*args)  # the same run again without --json: the line summary, then the failures
    assert text.returncode == 3 and text.stdout.startswith("annotated 4 units")
    assert "3 of 4 units failed:" in text.stderr

    server.script = None  # the server is fixed: the refused units are asked again and judged
    healed = curate(*args, "--json")
    assert healed.returncode == 3, healed.stderr
    summary = json.loads(healed.stdout)
    assert (summary["accepted"], summary["requested"], summary["failed"]) == (3, 2, 1)
    # The unusable answers of unit 3 are stored replies: the same requests give the same answers.
    assert [f["example_unit"] for f in summary["failures"]] == ["unit0003"]


def test_a_failed_rerun_never_replaces_a_judged_answer(server: OpenAIServer, tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws", 2)
    server.script = lambda r: Reply.ok(json.dumps({"analysis": "Too short."})) if unit_index(r) == 1 else None
    first = curate(
        "annotate", "-w", str(ws), "--base-url", server.url, "--model", "m", "--max-rounds", "0", *FAST
    )
    assert first.returncode == 0, first.stderr
    before = {a.unit_id: a for a in read_records(ws / "annotations.parquet", Annotation)}
    assert {a.verdict for a in before.values()} == {"accepted", "rejected"}

    dead = f"http://127.0.0.1:{free_port()}/v1"  # the endpoint is gone; a new parameter misses the cache
    again = curate(
        "annotate", "-w", str(ws), "--base-url", dead, "--model", "m", "--temperature", "0.9",
        "--response-format", "json_schema", *FAST,
    )  # fmt: skip
    after = {a.unit_id: a for a in read_records(ws / "annotations.parquet", Annotation)}
    assert {u: (a.verdict, a.reasoning) for u, a in after.items()} == {
        u: (a.verdict, a.reasoning) for u, a in before.items()
    }
    assert again.returncode == 3, again.stderr
    assert "2 x connection error" in again.stderr
    with sqlite3.connect(ws / "annotate.sqlite") as db:  # the journal keeps the failure too
        history = db.execute(
            "SELECT unit_id, verdict, reason FROM outcomes ORDER BY unit_id, verdict"
        ).fetchall()
    assert sorted(history) == sorted(
        [(u, a.verdict, "") for u, a in before.items()] + [(u, "failed", "connection error") for u in before]
    )


def test_journal_keeps_a_failure_without_replacing_the_judged_result(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "annotate.sqlite")

    def result(verdict: str, reasoning: str) -> UnitResult:
        diagnostics = [Diagnostic("teacher.transport", "error", "down")] if verdict == "failed" else []
        return UnitResult("u1", verdict, 1, reasoning, diagnostics, "m", "", "v1-full", "{}", 1, 1, 0.1, "t")

    journal.start_unit("u1", "instruction", "code", "v1-full", "{}", "t", "r1")
    assert journal.put_result(result("rejected", "## Operator analysis\nfirst"), "r1")
    assert not journal.put_result(result("failed", ""), "r2", "connection error")
    assert journal.put_result(result("accepted", "## Operator analysis\nbetter"), "r3")
    [annotation] = journal.annotations()
    assert (annotation.verdict, annotation.reasoning) == ("accepted", "## Operator analysis\nbetter")
    assert journal.count("outcomes") == 3
    journal.close()


def test_a_dead_endpoint_stops_at_the_probe_with_one_line(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws", 6)
    url = f"http://127.0.0.1:{free_port()}/v1"
    started = time.monotonic()
    done = curate("annotate", "-w", str(ws), "--base-url", url, "--model", "m", "--json")
    assert time.monotonic() - started < 60
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("error: annotate stopped: the teacher at http://127.0.0.1:")
    assert "nothing answers at" in line and "start the server or fix --base-url" in line
    summary = json.loads(done.stdout)  # --json still says what happened
    assert (summary["failed"], summary["pending"], summary["requested"]) == (0, 6, 0)
    assert summary["stopped"] in line


def test_a_dead_endpoint_with_an_explicit_format_stops_after_three_failed_units(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws", 8)
    url = f"http://127.0.0.1:{free_port()}/v1"
    done = curate(
        "annotate", "-w", str(ws), "--base-url", url, "--model", "m", "--response-format", "json_schema",
        "--retries", "6", "--concurrency", "1", "--json",
    )  # fmt: skip
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert "stopped after 3 units failed in a row (connection error" in line
    assert "start the server or fix --base-url" in line
    summary = json.loads(done.stdout)
    assert (summary["failed"], summary["pending"]) == (3, 5)
    assert summary["http_requests"] == 6  # two attempts per unit: nothing ever listened there


def test_a_model_name_the_server_refuses_stops_the_run(server: OpenAIServer, tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws", 6)
    server.script = lambda r: Reply.error(400, f"model '{r.body.get('model')}' is not served here")
    explicit = curate(
        "annotate", "-w", str(ws), "--base-url", server.url, "--model", "gpt-5-typo",
        "--response-format", "tagged", *FAST,
    )  # fmt: skip
    assert explicit.returncode == 2
    assert "stopped after 3 units failed in a row (request refused (HTTP 400)" in explicit.stderr
    assert "check --model" in explicit.stderr and server.chat_count() == 3

    probed = curate("annotate", "-w", str(ws), "--base-url", server.url, "--model", "gpt-5-typo", *FAST)
    assert probed.returncode == 2 and server.chat_count() == 6  # three probes, then no unit
    assert "refuses a plain chat request" in probed.stderr and "gpt-5-typo" in probed.stderr
