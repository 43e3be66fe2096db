"""The annotation client against the documented behaviours of real servers (`tests.servers.profiles`):
the answer format each one accepts is found by one probe per format, refusals in every shape are
never retried, reasoning fields and missing usage are handled, an unknown model stops the run."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from annotate.config import AnnotateConfig
from annotate.export import export_tables
from annotate.loop import RunSummary
from annotate.negotiate import PROBE_MESSAGES
from annotate.run import annotate_units
from benchmarks.form_verifier import StructuralVerifier
from schemas import Annotation, read_records
from tests.servers.openai_server import OpenAIServer, Reply
from tests.servers.profiles import PROFILE_MODEL, PROFILES, THINKING, flat_error
from tests.test_annotate_task import make_unit

FAST = {"backoff_base_s": 0.01, "backoff_max_s": 0.05, "timeout_s": 5.0, "retries": 3, "concurrency": 1}

# What each profile ends up with: the richest format it accepts, and the probes that found it.
EXPECTED_FORMAT = {
    "openai": ("json_schema", 1),
    "openai-without-structured-outputs": ("json_object", 2),
    "vllm": ("json_schema", 1),
    "vllm-reasoning-content": ("json_schema", 1),
    "vllm-before-json-schema": ("json_object", 2),
    "sglang": ("json_schema", 1),
    "ollama": ("json_schema", 1),
    "llama-cpp-python": ("json_object", 2),
    "gateway-errors-in-200": ("json_object", 2),
}


def run(server: OpenAIServer, tmp_path: Path, units: int = 2, **overrides: Any) -> RunSummary:
    tmp_path.mkdir(parents=True, exist_ok=True)
    config = AnnotateConfig(base_url=server.url, **{"model": PROFILE_MODEL, **FAST, **overrides})
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


def test_every_profile_is_covered() -> None:
    assert set(EXPECTED_FORMAT) == set(PROFILES)


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_each_server_gets_the_richest_format_it_accepts_and_every_unit_judged(
    name: str, tmp_path: Path
) -> None:
    profile = PROFILES[name]
    with OpenAIServer(profile=profile) as server:
        summary = run(server, tmp_path, units=2)
        probes = [r for r in server.chat_requests() if r.messages == PROBE_MESSAGES]
    expected_format, expected_probes = EXPECTED_FORMAT[name]
    assert (summary.accepted, summary.failed, summary.stopped) == (2, 0, "")
    assert (summary.response_format, summary.response_format_source) == (expected_format, "probe")
    assert len(probes) == expected_probes and summary.http_requests == expected_probes + 2
    assert summary.retries == 0  # a refusal is never retried
    [(remembered,)] = journal_rows(tmp_path, "SELECT response_format FROM endpoints")
    assert remembered == expected_format

    reasoning = journal_rows(tmp_path, "SELECT reasoning FROM responses")
    expected_reasoning = THINKING if profile.reasoning_field else ""
    assert [r for (r,) in reasoning] == [expected_reasoning, expected_reasoning]
    export_tables(tmp_path / "annotate.sqlite", tmp_path / "a.parquet", tmp_path / "t.parquet")
    annotations = read_records(tmp_path / "a.parquet", Annotation)
    assert all(THINKING not in a.reasoning for a in annotations)  # the server's thinking is not the answer
    if profile.usage:
        assert summary.prompt_tokens > 0 and summary.completion_tokens > 0
    else:
        assert (summary.prompt_tokens, summary.completion_tokens) == (0, 0)


@pytest.mark.parametrize("name", sorted(n for n, p in PROFILES.items() if p.unknown_model is not None))
def test_an_unknown_model_stops_the_run_at_the_probe(name: str, tmp_path: Path) -> None:
    with OpenAIServer(profile=PROFILES[name]) as server:
        summary = run(server, tmp_path, units=5, model="no-such-model")
        sent = server.chat_count()
    assert "unknown --model" in summary.stopped and "no-such-model" in summary.stopped
    assert sent == 1 and (summary.accepted, summary.failed, summary.pending) == (0, 0, 5)


def test_an_explicit_format_the_server_refuses_stops_at_once_without_retries(tmp_path: Path) -> None:
    with OpenAIServer(profile=PROFILES["llama-cpp-python"]) as server:
        summary = run(server, tmp_path, units=3, response_format="json_schema", retries=6)
        sent = server.chat_count()
    assert sent == 1  # the old client retried this HTTP 500 seven times per request
    assert "refuses response_format 'json_schema'" in summary.stopped
    assert "--response-format auto" in summary.stopped and summary.retries == 0


def test_an_explicit_format_the_server_accepts_is_used_without_a_probe(tmp_path: Path) -> None:
    with OpenAIServer(profile=PROFILES["llama-cpp-python"]) as server:
        summary = run(server, tmp_path, units=2, response_format="json_object")
        assert server.chat_count() == 2
        assert all(r.body["response_format"]["type"] == "json_object" for r in server.chat_requests())
    assert (summary.accepted, summary.response_format_source) == (2, "option")


def test_the_format_is_probed_once_then_taken_from_the_journal(tmp_path: Path) -> None:
    with OpenAIServer(profile=PROFILES["vllm-before-json-schema"]) as server:
        first = run(server, tmp_path, units=2)
        assert server.chat_count() == 4  # two probes, two units
        again = run(server, tmp_path, units=2)
        assert server.chat_count() == 4  # everything stored: not even a probe
        changed = run(server, tmp_path, units=2, temperature=0.9)  # new requests, same endpoint
        assert server.chat_count() == 6
    assert (first.response_format_source, again.response_format_source) == ("probe", "journal")
    assert (again.cached, changed.requested, changed.response_format) == (2, 2, "json_object")


def test_a_refusal_mid_run_steps_down_once_and_is_remembered(tmp_path: Path) -> None:
    with OpenAIServer(profile=PROFILES["vllm"]) as server:
        assert run(server, tmp_path, units=1).response_format == "json_schema"
        server.default = PROFILES["llama-cpp-python"].answer  # the same URL now serves another server
        summary = run(server, tmp_path, units=3, temperature=0.9)
        sent = [(r.body.get("response_format") or {}).get("type") for r in server.chat_requests()[2:]]
    assert sent == ["json_schema", "json_object", "json_object", "json_object"]
    assert (summary.accepted, summary.failed, summary.retries, summary.response_format) == (
        3,
        0,
        0,
        "json_object",
    )
    assert journal_rows(tmp_path, "SELECT response_format FROM endpoints") == [("json_object",)]


def test_refusal_shapes_without_the_field_name_step_down_in_the_probe(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        # A server whose 422 does not say which field it disliked: the probe still moves on.
        server.script = lambda r: (
            Reply.error(422, "unprocessable entity") if r.body.get("response_format") else None
        )
        summary = run(server, tmp_path, units=1)
    assert (summary.accepted, summary.response_format, summary.http_requests) == (1, "tagged", 4)


def test_a_server_that_refuses_even_plain_requests_stops_at_the_probe(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        server.script = lambda r: Reply.error(400, "max_tokens is not supported with this model")
        summary = run(server, tmp_path, units=4)
        assert server.chat_count() == 3  # json_schema, json_object, plain: then no unit is tried
    assert "refuses a plain chat request" in summary.stopped and summary.pending == 4


def test_a_transient_error_inside_a_200_is_retried(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        server.push(flat_error(503, "the engine is overloaded", "ServiceUnavailableError", wire_status=200))
        summary = run(server, tmp_path, units=1, response_format="json_schema")
    assert (summary.accepted, summary.retries, summary.http_requests) == (1, 1, 2)


def test_openai_refusal_and_sglang_abort_are_unusable_answers(tmp_path: Path) -> None:
    refusal = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": PROFILE_MODEL,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": None, "refusal": "I can't help with that."},
                "finish_reason": "stop",
            }
        ],
    }
    with OpenAIServer(profile=PROFILES["openai"]) as server:
        server.script = lambda r: Reply(raw_body=json.dumps(refusal).encode())
        declined = run(server, tmp_path / "a", units=1, response_format="json_schema", format_retries=0)
    assert declined.failed == 1
    [group] = declined.failures
    assert group["reason"] == "unusable answer: the model declined to answer"
    assert "I can't help with that." in str(group["example"])

    with OpenAIServer(profile=PROFILES["sglang"]) as server:
        server.push(Reply(content='{"analysis": "', finish_reason="abort"))
        aborted = run(server, tmp_path / "b", units=1, response_format="json_schema")
    assert (aborted.accepted, aborted.http_requests) == (1, 2)  # re-asked once after the abort
