"""The toolchain verifiers in the annotation loop, against the scriptable OpenAI-compatible server:
a hallucinated API is rejected, fed back to the teacher, and the corrected answer accepted."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from annotate.config import AnnotateConfig
from annotate.export import export_tables
from annotate.reasoning import VerifyConfig, default_verifiers, verifier_names
from annotate.run import annotate_units
from schemas import Annotation, Attempt, read_records
from tests.servers.openai_server import OpenAIServer, Reply
from tests.test_verify_grounding import SECTIONS, unit

HALLUCINATED = {
    **SECTIONS,
    "api_choices": "`AscendC::Addd` adds the two tiles elementwise; `AscendC::DataCopy` moves whole blocks.",
}


@pytest.fixture
def server() -> Any:
    with OpenAIServer() as srv:
        yield srv


def test_hallucinated_api_is_fed_back_and_the_corrected_answer_accepted(
    server: OpenAIServer, tmp_path: Path
) -> None:
    server.push(Reply.ok(json.dumps(HALLUCINATED)), Reply.ok(json.dumps(SECTIONS)))
    config = AnnotateConfig(
        base_url=server.url,
        model="test-model",
        backoff_base_s=0.01,
        max_rounds=2,
        response_format="json_schema",
    )
    verifiers = default_verifiers(VerifyConfig(cann=False))
    assert verifier_names(verifiers) == "surface, grounding"
    summary = annotate_units([unit()], config, verifiers, tmp_path / "annotate.sqlite", "k")
    assert (summary.accepted, summary.rejected, server.chat_count()) == (1, 0, 2)

    feedback = server.chat_requests()[1].last_user_text
    assert "[grounding.api_exists] you named `AscendC::Addd`, which does not exist" in feedback
    assert "`AscendC::Add`" in feedback

    export_tables(
        tmp_path / "annotate.sqlite", tmp_path / "annotations.parquet", tmp_path / "attempts.parquet"
    )
    [annotation] = read_records(tmp_path / "annotations.parquet", Annotation)
    attempts = read_records(tmp_path / "attempts.parquet", Attempt)
    assert (annotation.verdict, annotation.attempts) == ("accepted", 2)
    assert [(a.round, a.verdict) for a in attempts] == [(1, "rejected"), (2, "accepted")]
    [first] = attempts[0].diagnostics
    assert (first.check, first.severity) == ("grounding.api_exists", "error") and "Addd" in first.message
    assert attempts[1].diagnostics == []
    assert [d.check for d in annotation.diagnostics] == ["grounding.api_exists"]  # round 1 kept


def test_default_verifiers_take_the_verify_config() -> None:
    assert [v.name for v in default_verifiers(VerifyConfig())][:2] == ["surface", "grounding"]
