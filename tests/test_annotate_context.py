"""The teacher sees the whole unit: a unit whose full prompt does not fit the teacher's context is
left out with a reason in the summary, never cut; the window comes from the option or the server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from annotate.config import AnnotateConfig
from annotate.context import NO_FIT_REASON, prompt_tokens
from annotate.export import export_tables
from annotate.loop import RunSummary
from annotate.run import annotate_units
from annotate.tasks.kernel_reasoning import prompt
from benchmarks.form_verifier import StructuralVerifier
from curate.cli import app
from schemas import Annotation, KernelUnit, read_records, write_records
from tests.servers.openai_server import OpenAIServer
from tests.test_annotate_task import KERNEL_BODY, make_unit

LONG_BODY = "".join(f"    float v{i} = {i}.0f; // step {i} of the long kernel\n" for i in range(1500))


def long_unit() -> KernelUnit:
    return make_unit(1, code=KERNEL_BODY + LONG_BODY)


def run(server: OpenAIServer, tmp_path: Path, units: list[KernelUnit], **overrides: Any) -> RunSummary:
    settings = {"model": "test-model", "response_format": "json_schema", "max_tokens": 512, **overrides}
    config = AnnotateConfig(base_url=server.url, **settings)
    return annotate_units(units, config, [StructuralVerifier()], tmp_path / "annotate.sqlite", "k")


def window_between_the_two() -> int:
    """A context the small unit's prompt fits (with max_tokens for the answer) and the long one does not."""
    small = prompt_tokens(prompt(make_unit(), "full", "json_schema", 2400).messages)
    large = prompt_tokens(prompt(long_unit(), "full", "json_schema", 2400).messages)
    assert small + 512 < large
    return small + 512 + (large - small) // 2


def test_a_unit_over_the_server_window_is_left_out_with_its_reason(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        server.model_info = {"max_model_len": window_between_the_two()}  # vLLM's /v1/models field
        summary = run(server, tmp_path, [make_unit(), long_unit()])
        sent = server.chat_requests()
    assert (summary.accepted, summary.failed, len(sent)) == (1, 1, 1)  # the long unit was never sent
    assert "step 0 of" not in sent[0].last_user_text
    assert (summary.context_tokens, summary.context_source) == (
        window_between_the_two(),
        "server /v1/models",
    )
    [group] = summary.failures
    assert (group["reason"], group["count"], group["example_unit"]) == (NO_FIT_REASON, 1, "unit0001")
    assert "over the teacher's context" in str(group["example"])
    export_tables(tmp_path / "annotate.sqlite", tmp_path / "a.parquet", tmp_path / "b.parquet")
    rows = {a.unit_id: a for a in read_records(tmp_path / "a.parquet", Annotation)}
    assert rows["unit0001"].verdict == "failed"
    assert [d.check for d in rows["unit0001"].diagnostics] == ["teacher.context"]


def test_the_whole_unit_is_sent_when_it_fits(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        server.props = {"default_generation_settings": {"n_ctx": 1_000_000}}  # llama.cpp's /props
        summary = run(server, tmp_path, [long_unit()])
        [request] = server.chat_requests()
    assert summary.accepted == 1 and summary.context_source == "server /props"
    for i in (0, 750, 1499):  # the whole kernel, no "[N lines omitted]"
        assert f"step {i} of the long kernel" in request.last_user_text
    assert "omitted" not in request.last_user_text


@pytest.mark.parametrize(("option", "fits"), [(1_000_000, True), (2_000, False)])
def test_the_option_decides_without_asking_the_server(tmp_path: Path, option: int, fits: bool) -> None:
    with OpenAIServer() as server:
        server.model_info = {"max_model_len": 100}  # ignored: the option wins
        summary = run(server, tmp_path, [long_unit()], context_tokens=option)
        assert server.lookups == [] and server.chat_count() == int(fits)
    assert (summary.accepted, summary.failed, summary.context_source) == (int(fits), int(not fits), "option")


def test_a_server_that_does_not_say_gets_the_whole_unit_and_a_rerun_asks_nothing(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        first = run(server, tmp_path, [long_unit()])
        assert (first.accepted, first.context_tokens, first.context_source) == (1, 0, "unknown")
        assert server.lookups == ["/v1/models", "/props"]
        rerun = run(server, tmp_path, [long_unit()])
        assert (rerun.cached, rerun.http_requests, rerun.context_source) == (1, 0, "")
        assert len(server.lookups) == 2 and server.chat_count() == 1  # nothing asked again


def test_the_command_leaves_out_what_does_not_fit_and_says_so(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    write_records(ws / "units.parquet", KernelUnit, [make_unit(), long_unit()])
    with OpenAIServer() as server:
        args = ["annotate", "-w", str(ws), "--base-url", server.url, "--response-format", "json_schema"]
        window = str(window_between_the_two())
        result = CliRunner().invoke(app, [*args, "--max-tokens", "512", "--context-tokens", window])
        assert server.chat_count() == 1
    assert result.exit_code == 3, result.output  # some units failed: the summary says why
    assert f"teacher context {window} tokens (option)" in result.output
    assert f"1 x {NO_FIT_REASON}, e.g. unit unit0001" in result.output
