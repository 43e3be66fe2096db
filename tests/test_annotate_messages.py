"""What annotate says when the teacher misbehaves, through the installed `curate` command and a
loopback server: an answer cut off mid-body is named as such (not "nothing answers ... start the
server"), and the answer-format probe honours --retries (early 429s with Retry-After do not stop
a run the user gave more retries)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.servers.openai_server import ChatRequest, OpenAIServer, Reply
from tests.test_annotate_failures import curate, workspace


def test_an_answer_cut_off_mid_body_is_named_as_such(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws", 3)
    with OpenAIServer() as server:
        server.script = lambda request: Reply.cut_off()
        done = curate(
            "annotate", "-w", str(ws), "--base-url", server.url, "--model", "m", "--retries", "1",
            "--concurrency", "1", "--timeout", "5", "--response-format", "json_object",
        )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    said = done.stderr.strip().splitlines()[-1]
    assert "cut off mid-body" in done.stderr or "in the middle of its answers" in said, done.stderr
    assert "start the server" not in done.stderr


def test_the_format_probe_honours_retries(tmp_path: Path) -> None:
    ws = workspace(tmp_path / "ws", 1)
    with OpenAIServer() as server:

        def script(request: ChatRequest) -> Reply | None:
            # the first four requests (the probe's) are rate-limited with a short Retry-After
            return Reply.rate_limited(0.05) if request.index < 4 else None

        server.script = script
        done = curate(
            "annotate", "-w", str(ws), "--base-url", server.url, "--model", "m", "--retries", "6",
            "--concurrency", "1", "--timeout", "5", "--json",
        )  # fmt: skip
    assert done.returncode in (0, 3), done.stderr  # judged (or failed on its merits), not stopped
    summary = json.loads(done.stdout)
    assert not summary["stopped"], summary["stopped"]
    assert summary["response_format"] == "json_schema"
