"""Documented behaviours of the OpenAI-compatible servers people run, as profiles of the test server.

Each profile answers like that server does on the points the annotation client depends on: which
`response_format` types it takes, how it refuses the others (status and error body), what it does
with a model name it does not serve, which `finish_reason` values it documents, whether the body has
`usage` and `system_fingerprint`, and where a reasoning model's thinking goes. Sources, as read:

- OpenAI API: `json_schema` (Structured Outputs) and `json_object`; a model without Structured
  Outputs answers 400 `Invalid parameter: 'response_format' of type 'json_schema' is not supported
  with this model.` (type invalid_request_error, param response_format); an unknown model is 404
  with code model_not_found; finish_reason stop | length | content_filter | tool_calls; `refusal`
  on the message; usage and system_fingerprint present.
- vLLM (`vllm serve`): `ResponseFormat.type` is text | json_object | json_schema (releases before
  json_schema validated `Literal["text", "json_object"]` and answered 400 with the flat error body
  `{"object": "error", "message", "type": "BadRequestError", "param", "code"}`); newer releases nest
  it as `{"error": {...}}`; an unknown model is 404 NotFoundError "The model `x` does not exist.";
  reasoning parsers put the thinking in `reasoning_content` (renamed `reasoning` from 0.11 on).
- SGLang: text | json_object | json_schema (plus structural_tag); the flat error body;
  finish_reason stop | length | content_filter | abort, with `matched_stop` beside it;
  `reasoning_content` with `--reasoning-parser`; usage with `reasoning_tokens`.
- Ollama (`/v1` compatibility layer): `json_object` becomes format "json", `json_schema` its schema,
  any other type is ignored (never refused); errors are `{"error": {"message", "type":
  invalid_request_error | not_found_error | api_error, "param": null, "code": null}}`; an unknown
  model is 404 `model "x" not found, try pulling it first`; thinking models fill `reasoning`;
  system_fingerprint "fp_ollama".
- llama-cpp-python (`python -m llama_cpp.server`): text | json_object (a `schema` inside becomes a
  grammar); `json_schema` is refused with HTTP 500 carrying the pydantic validation error ("Input
  should be 'text' or 'json_object'"); any model name is served; no system_fingerprint.
- A gateway that wraps upstream errors in HTTP 200 (reported for a serverless vLLM worker: an
  unknown model came back as 200 with vLLM's flat error body). It also leaves out `usage`, which
  the OpenAI response type marks optional.

Model names the profiles serve: `PROFILE_MODEL`; another name gets the server's unknown-model answer
where the profile documents one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.servers.openai_server import ChatRequest, Reply

PROFILE_MODEL = "served-model"
THINKING = "First the tiling, then the queues; the answer follows."


def openai_error(status: int, message: str, type_: str, param: str | None = None, code: Any = None) -> Reply:
    body = {"error": {"message": message, "type": type_, "param": param, "code": code}}
    return Reply(status=status, raw_body=json.dumps(body).encode())


def flat_error(status: int, message: str, type_: str, wire_status: int | None = None) -> Reply:
    """vLLM's (older) and SGLang's error body; `wire_status` is the HTTP status actually sent."""
    body = {"object": "error", "message": message, "type": type_, "param": None, "code": status}
    return Reply(status=wire_status or status, raw_body=json.dumps(body).encode())


def nested_error(status: int, message: str, type_: str) -> Reply:
    """vLLM's newer error body: the same fields under `error`."""
    body = {"error": {"message": message, "type": type_, "param": None, "code": status}}
    return Reply(status=status, raw_body=json.dumps(body).encode())


def pydantic_literal_error(value: str, allowed: str) -> str:
    """The text of a FastAPI/pydantic validation error for response_format.type."""
    return (
        "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
        f"'msg': \"Input should be {allowed}\", 'input': '{value}'}}"
    )


@dataclass(frozen=True)
class ServerProfile:
    name: str
    accepts: frozenset[str]  # response_format types answered (a request without one always is)
    refuse: Callable[[str], Reply] | None  # the answer to another type; None: the field is ignored
    unknown_model: Callable[[str], Reply] | None  # None: any model name is served
    finish_reasons: tuple[str, ...]  # the documented values (the first is a normal answer's)
    usage: bool = True
    fingerprint: str | None = None
    reasoning_field: str | None = None  # where a reasoning model's thinking goes
    choice_extra: dict[str, Any] = field(default_factory=dict)
    models: tuple[str, ...] = (PROFILE_MODEL,)

    def answer(self, request: ChatRequest) -> Reply:
        model = str(request.body.get("model", ""))
        if self.unknown_model is not None and model not in self.models:
            return self.unknown_model(model)
        wanted = (request.body.get("response_format") or {}).get("type")
        if wanted and wanted not in self.accepts and self.refuse is not None:
            return self.refuse(wanted)
        return Reply(
            finish_reason=self.finish_reasons[0],
            fingerprint=self.fingerprint,
            usage=self.usage,
            reasoning={self.reasoning_field: THINKING} if self.reasoning_field else {},
            choice_extra=dict(self.choice_extra),
        )


def _openai_refuse(value: str) -> Reply:
    message = (
        f"Invalid parameter: 'response_format' of type '{value}' is not supported with this model. "
        "Learn more about supported models at the Structured Outputs guide."
    )
    return openai_error(400, message, "invalid_request_error", "response_format")


def _openai_unknown(model: str) -> Reply:
    message = f"The model `{model}` does not exist or you do not have access to it."
    return openai_error(404, message, "invalid_request_error", None, "model_not_found")


def _vllm_unknown(model: str) -> Reply:
    return nested_error(404, f"The model `{model}` does not exist.", "NotFoundError")


def _vllm_old_unknown(model: str) -> Reply:
    return flat_error(404, f"The model `{model}` does not exist.", "NotFoundError")


def _vllm_old_refuse(value: str) -> Reply:
    return flat_error(400, pydantic_literal_error(value, "'text' or 'json_object'"), "BadRequestError")


def _ollama_unknown(model: str) -> Reply:
    return openai_error(404, f'model "{model}" not found, try pulling it first', "not_found_error")


def _llama_cpp_python_refuse(value: str) -> Reply:
    message = pydantic_literal_error(value, "'text' or 'json_object'") + "\n\n  POST /v1/chat/completions"
    return openai_error(500, message, "internal_server_error")


def _gateway_unknown(model: str) -> Reply:
    return flat_error(404, f"The model `{model}` does not exist.", "NotFoundError", wire_status=200)


def _gateway_refuse(value: str) -> Reply:
    message = pydantic_literal_error(value, "'text' or 'json_object'")
    return flat_error(400, message, "BadRequestError", wire_status=200)


STRUCTURED = frozenset({"json_schema", "json_object"})

PROFILES: dict[str, ServerProfile] = {
    p.name: p
    for p in (
        ServerProfile(
            "openai",
            STRUCTURED,
            _openai_refuse,
            _openai_unknown,
            ("stop", "length", "content_filter", "tool_calls"),
            fingerprint="fp_2f2b1a7c1e",
        ),
        ServerProfile(
            "openai-without-structured-outputs",  # an older model behind the same API
            frozenset({"json_object"}),
            _openai_refuse,
            _openai_unknown,
            ("stop", "length", "content_filter", "tool_calls"),
            fingerprint="fp_3b956da36b",
        ),
        ServerProfile(
            "vllm",
            STRUCTURED,
            None,
            _vllm_unknown,
            ("stop", "length", "tool_calls"),
            reasoning_field="reasoning",
            choice_extra={"stop_reason": None},
        ),
        ServerProfile(
            "vllm-reasoning-content",  # releases before 0.11 name the field reasoning_content
            STRUCTURED,
            None,
            _vllm_old_unknown,
            ("stop", "length", "tool_calls"),
            reasoning_field="reasoning_content",
            choice_extra={"stop_reason": None},
        ),
        ServerProfile(
            "vllm-before-json-schema",
            frozenset({"json_object"}),
            _vllm_old_refuse,
            _vllm_old_unknown,
            ("stop", "length"),
        ),
        ServerProfile(
            "sglang",
            STRUCTURED,
            None,
            None,
            ("stop", "length", "content_filter", "abort"),
            reasoning_field="reasoning_content",
            choice_extra={"matched_stop": 1},
        ),
        ServerProfile(
            "ollama",
            STRUCTURED,
            None,  # an unknown type is ignored, never refused
            _ollama_unknown,
            ("stop", "length", "tool_calls"),
            fingerprint="fp_ollama",
            reasoning_field="reasoning",
        ),
        ServerProfile(
            "llama-cpp-python",
            frozenset({"json_object"}),
            _llama_cpp_python_refuse,
            None,  # serves its one model whatever name is asked for
            ("stop", "length"),
        ),
        ServerProfile(
            "gateway-errors-in-200",
            frozenset({"json_object"}),
            _gateway_refuse,
            _gateway_unknown,
            ("stop", "length"),
            usage=False,
        ),
    )
}
