"""Which answer format the teacher accepts, decided once per run, before the batch.

Servers that call themselves OpenAI-compatible differ in the `response_format` they take: the
OpenAI API, vLLM, SGLang, Ollama and llama.cpp's llama-server take `json_schema`; llama-cpp-python's
server refuses it (HTTP 500, a validation error) and takes `json_object` with a schema (which it
turns into a grammar); some servers take neither. With `response_format = "auto"` one small request
per candidate, richest first, finds the first format the server accepts; tagged sections need no
server support at all. The choice is kept in the journal per endpoint and model, so a rerun whose
answers are all stored sends no request. An explicit `--response-format` is used as given.

A probe that cannot reach the server, or that the server refuses even without a `response_format`,
stops the run before any unit is tried, with one line saying what to fix.
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass, field

from annotate.config import AnnotateConfig
from annotate.journal import Journal
from annotate.tasks.kernel_reasoning import response_format_param
from annotate.teacher import FormatUnsupported, TeacherClient, TeacherError, TeacherFatal, what_to_fix

FORMATS_BY_RICHNESS = ("json_schema", "json_object", "tagged")
PROBE_MAX_TOKENS = 16
PROBE_MESSAGES = [{"role": "user", "content": 'Reply with a JSON object whose values are all "ok".'}]


@dataclass(slots=True)
class FormatChoice:
    response_format: str  # json_schema | json_object | tagged
    source: str  # option (--response-format), local (our llama.cpp server), journal, probe
    can_fall_back: bool  # auto: a later refusal steps down a format; an explicit option stops the run
    refusals: list[str] = field(default_factory=list)  # what the server said to richer formats


def simpler_format(response_format: str) -> str | None:
    """The next format down, or None below tagged sections."""
    position = FORMATS_BY_RICHNESS.index(response_format)
    return FORMATS_BY_RICHNESS[position + 1] if position + 1 < len(FORMATS_BY_RICHNESS) else None


def endpoint_key(base_url: str) -> str:
    """The endpoint as remembered in the journal: no credentials, no trailing slash."""
    parts = urllib.parse.urlsplit(base_url)
    netloc = parts.hostname or ""
    if parts.port:
        netloc = f"{netloc}:{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, netloc, parts.path.rstrip("/"), "", ""))


async def choose_format(
    config: AnnotateConfig, client: TeacherClient, journal: Journal | None, now: str
) -> FormatChoice:
    """The answer format of this run; `journal` (when given) remembers it per endpoint and model."""
    if config.response_format != "auto":
        return FormatChoice(config.response_format, "option", can_fall_back=False)
    if config.teacher == "local":
        # Our own llama-cpp-python server: json_object with a schema is its grammar-constrained JSON.
        return FormatChoice("json_object", "local", can_fall_back=True)
    key = endpoint_key(config.base_url)
    remembered = journal.endpoint_format(key, config.model) if journal is not None else None
    if remembered in FORMATS_BY_RICHNESS:
        return FormatChoice(str(remembered), "journal", can_fall_back=True)
    choice = await probe_format(config, client)
    if journal is not None:
        journal.remember_format(key, config.model, choice.response_format, now, "; ".join(choice.refusals))
    return choice


async def probe_format(config: AnnotateConfig, client: TeacherClient) -> FormatChoice:
    """One small request per format, richest first; the first one answered is the choice."""
    params = {**config.generation_params(), "max_tokens": min(PROBE_MAX_TOKENS, config.max_tokens or 16)}
    refusals: list[str] = []
    for fmt in FORMATS_BY_RICHNESS:
        rf = response_format_param(fmt, config.prompt_style, config.max_tokens)
        try:
            await client.complete(PROBE_MESSAGES, params, rf, 64 + PROBE_MAX_TOKENS, retries=config.retries)
        except FormatUnsupported as exc:
            refusals.append(f"{fmt}: {exc.message}")
            continue
        except TeacherFatal:
            raise
        except TeacherError as exc:
            if exc.kind == "transport":  # nothing usable answers: no unit could be annotated
                message = client.redact(exc.message)
                raise TeacherFatal(
                    "stopped",
                    f"the teacher at {config.base_url} did not answer ({message}); "
                    f"{what_to_fix(exc.reason, config.base_url)}",
                    exc.reason,
                ) from None
            if fmt == "tagged":  # refused even without response_format: no request can succeed
                raise TeacherFatal(
                    "stopped",
                    f"the teacher refuses a plain chat request ({client.redact(exc.message)}); "
                    "check --model and the generation options (--max-tokens, --temperature, --seed)",
                    exc.reason,
                ) from None
            refusals.append(f"{fmt}: {exc.message}")  # refused without naming the field: try simpler
            continue
        return FormatChoice(fmt, "probe", can_fall_back=True, refusals=refusals)
    raise AssertionError("unreachable: tagged sections either answer or raise")
