"""Transport faults against the scriptable OpenAI-compatible server on loopback: 429 with
Retry-After, 5xx, hangs past the timeout, malformed bodies, truncated output, slow answers
(concurrency), rate limits, and the errors that must stop a run."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from annotate.config import AnnotateConfig
from annotate.limits import RateLimiter
from annotate.loop import RunSummary
from annotate.run import annotate_units
from annotate.teacher import parse_retry_after
from benchmarks.form_verifier import StructuralVerifier
from tests.servers.openai_server import ChatRequest, OpenAIServer, Reply
from tests.test_annotate_task import make_unit

# An explicit answer format: these tests are about the transport, not about the format probe.
FAST = {
    "backoff_base_s": 0.01,
    "backoff_max_s": 0.05,
    "timeout_s": 5.0,
    "retries": 3,
    "response_format": "json_schema",
}


@pytest.fixture
def server() -> Any:
    with OpenAIServer() as srv:
        yield srv


def run(server: OpenAIServer, tmp_path: Path, units: int = 1, **overrides: Any) -> RunSummary:
    config = AnnotateConfig(
        base_url=server.url, model="test-model", **{"concurrency": 4, **FAST, **overrides}
    )
    return annotate_units(
        [make_unit(i) for i in range(units)],
        config,
        [StructuralVerifier()],
        tmp_path / "annotate.sqlite",
        "k",
    )


def journal_rows(tmp_path: Path, sql: str) -> list[tuple[Any, ...]]:
    with sqlite3.connect(tmp_path / "annotate.sqlite") as db:
        return db.execute(sql).fetchall()


def test_429_with_retry_after_is_honoured(server: OpenAIServer, tmp_path: Path) -> None:
    server.push(Reply.rate_limited(retry_after=0.6))
    started = time.perf_counter()
    summary = run(server, tmp_path)
    assert time.perf_counter() - started >= 0.6  # the backoff alone would have waited ~0.01 s
    assert (summary.accepted, summary.rate_limited, summary.retries, server.chat_count()) == (1, 1, 1, 2)


def test_retry_after_forms_and_shared_pause() -> None:
    assert parse_retry_after({"retry-after": "2"}) == 2.0
    assert parse_retry_after({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert (
        9 < (parse_retry_after({"retry-after": "Wed, 21 Oct 2015 07:28:10 GMT"}, now=1445412480.0) or 0) < 11
    )
    assert parse_retry_after({"retry-after": "soon"}) is None

    async def paused_wait() -> float:
        limiter = RateLimiter()
        limiter.pause_until(time.monotonic() + 0.3)  # another worker was told to wait
        started = time.perf_counter()
        await limiter.acquire(100)
        return time.perf_counter() - started

    assert asyncio.run(paused_wait()) >= 0.29


def test_server_errors_are_retried_then_succeed(server: OpenAIServer, tmp_path: Path) -> None:
    server.push(Reply.error(500), Reply.error(503))
    summary = run(server, tmp_path)
    assert (summary.accepted, summary.retries, server.chat_count()) == (1, 2, 3)


def test_persistent_server_error_fails_the_unit_with_the_reason_and_caches_nothing(
    server: OpenAIServer, tmp_path: Path
) -> None:
    server.script = lambda request: Reply.error(500, "overloaded")
    summary = run(server, tmp_path, retries=2)
    assert (summary.failed, summary.accepted, server.chat_count()) == (1, 0, 3)
    [(verdict, diagnostics)] = journal_rows(tmp_path, "SELECT verdict, diagnostics FROM results")
    assert verdict == "failed"
    [diagnostic] = json.loads(diagnostics)
    assert diagnostic["check"] == "teacher.transport" and "gave up after 3 attempts" in diagnostic["message"]
    assert "HTTP 500" in diagnostic["message"]
    assert journal_rows(tmp_path, "SELECT COUNT(*) FROM responses") == [(0,)]  # a rerun will ask again
    server.script = None
    assert run(server, tmp_path).accepted == 1


def test_hang_past_the_timeout_is_cut_and_retried(server: OpenAIServer, tmp_path: Path) -> None:
    server.push(Reply.hang(10.0))
    started = time.perf_counter()
    summary = run(server, tmp_path, timeout_s=0.3)
    assert time.perf_counter() - started < 5.0
    assert (summary.accepted, summary.retries, server.chat_count()) == (1, 1, 2)


def test_malformed_bodies_are_retried(server: OpenAIServer, tmp_path: Path) -> None:
    server.push(Reply.malformed(), Reply(raw_body=b'{"object": "chat.completion"}'))
    summary = run(server, tmp_path)
    assert (summary.accepted, summary.retries, server.chat_count()) == (1, 2, 3)


def test_truncated_output_is_re_asked_and_kept_as_a_failed_attempt(
    server: OpenAIServer, tmp_path: Path
) -> None:
    server.push(Reply.truncated('{"analysis": "The operator adds two ten'))
    summary = run(server, tmp_path)
    assert (summary.accepted, server.chat_count()) == (1, 2)
    retry = server.chat_requests()[1]
    assert retry.messages[-2] == {"role": "assistant", "content": '{"analysis": "The operator adds two ten'}
    assert "cut off at max_tokens" in retry.last_user_text
    attempts = journal_rows(
        tmp_path, "SELECT round, verdict, diagnostics FROM attempts ORDER BY verdict DESC"
    )
    assert [(r, v) for r, v, _ in attempts] == [(1, "failed"), (1, "accepted")]
    assert json.loads(attempts[0][2])[0]["check"] == "teacher.format"


def test_output_that_never_parses_fails_after_bounded_retries(server: OpenAIServer, tmp_path: Path) -> None:
    server.script = lambda request: Reply.ok("I'd rather write a poem about NPUs.")
    summary = run(server, tmp_path, format_retries=2)
    assert (summary.failed, server.chat_count()) == (1, 3)
    [(diagnostics,)] = journal_rows(tmp_path, "SELECT diagnostics FROM results")
    last = json.loads(diagnostics)[-1]
    assert last["check"] == "teacher.format" and "no usable answer after 3 tries" in last["message"]


def test_length_finish_reason_every_time_is_recorded_as_failed(server: OpenAIServer, tmp_path: Path) -> None:
    server.script = lambda request: Reply.truncated('{"analysis": "')
    summary = run(server, tmp_path, format_retries=1)
    assert (summary.failed, server.chat_count()) == (1, 2)
    [(verdict, diagnostics)] = journal_rows(tmp_path, "SELECT verdict, diagnostics FROM results")
    assert verdict == "failed" and "finish_reason=length" in diagnostics


def test_slow_answers_are_served_concurrently(server: OpenAIServer, tmp_path: Path) -> None:
    server.default = lambda request: Reply(delay_s=0.25)
    started = time.perf_counter()
    summary = run(server, tmp_path, units=12, concurrency=6)
    elapsed = time.perf_counter() - started
    assert summary.accepted == 12
    assert 0.5 <= elapsed < 1.5  # two waves of six; one at a time would take 3 s


def test_rpm_limit_spreads_requests(server: OpenAIServer, tmp_path: Path) -> None:
    started = time.perf_counter()
    summary = run(server, tmp_path, units=30, concurrency=8, rpm=1200)  # 20/s, one second of burst
    assert summary.accepted == 30
    assert time.perf_counter() - started >= 0.45  # 10 requests beyond the burst at 20/s


def test_tpm_limit_waits_for_token_budget() -> None:
    async def timed() -> float:
        limiter = RateLimiter(tpm=6000)  # 100 tokens/s, bucket of 100
        started = time.perf_counter()
        for _ in range(3):
            await limiter.acquire(50)
        limiter.settle(50, 80)  # the last request used more than estimated: the debt is paid by waiting
        await limiter.acquire(50)
        return time.perf_counter() - started

    assert asyncio.run(timed()) >= 0.7


def test_rejected_key_stops_the_run(server: OpenAIServer, tmp_path: Path) -> None:
    server.script = lambda request: Reply.error(401, "invalid api key k")
    summary = run(server, tmp_path, units=5)
    assert "refused the API key" in summary.stopped
    assert server.chat_count() <= 4  # no retries of a 401, and the other workers stop


def test_server_without_structured_output_falls_back_to_tagged_sections(
    server: OpenAIServer, tmp_path: Path
) -> None:
    def no_response_format(request: ChatRequest) -> Reply | None:
        if "response_format" in request.body:
            return Reply.error(400, "response_format is not supported by this server")
        return None  # default: a tagged answer, since no response_format was asked for

    server.script = no_response_format
    summary = run(server, tmp_path, units=3, concurrency=1, response_format="auto")
    assert summary.accepted == 3
    assert (summary.response_format, summary.response_format_source) == ("tagged", "probe")
    sent = [(r.body.get("response_format") or {}).get("type", "none") for r in server.chat_requests()]
    assert sent == ["json_schema", "json_object", "none", "none", "none", "none"]  # 3 probes, 3 units
    assert "<analysis>" in server.chat_requests()[-1].last_user_text


def test_unreachable_server_fails_units_with_connection_errors(tmp_path: Path) -> None:
    from annotate.local_teacher import free_port

    config = AnnotateConfig(
        base_url=f"http://127.0.0.1:{free_port()}/v1", model="m", **{**FAST, "retries": 1}
    )
    summary = annotate_units([make_unit()], config, [StructuralVerifier()], tmp_path / "annotate.sqlite", "k")
    assert (summary.failed, summary.retries) == (1, 1)
    [(diagnostics,)] = journal_rows(tmp_path, "SELECT diagnostics FROM results")
    assert "connection error" in json.loads(diagnostics)[0]["message"]
