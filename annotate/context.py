"""The teacher's context window, and whether a prompt fits it.

The full prompt shows the whole unit; a unit whose prompt (plus the room for the answer) does not
fit the teacher's context is left out and counted, never cut. The window comes from the option
(`context_tokens`), from our own local server (`local_ctx`), or from the server itself when it
says: vLLM and SGLang give `max_model_len` per model in `/v1/models` (OpenRouter-style gateways
`context_length`), llama.cpp's server gives `n_ctx` in `/props`. A server that says nothing leaves
the window unknown: no check, and a prompt over it comes back as "context window exceeded".

It is asked lazily, at the first request that is really sent: a rerun whose answers are all in
the journal asks nothing.
"""

from __future__ import annotations

import asyncio
import math
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any

from schemas.nesting import loads_json

LOOKUP_TIMEOUT_S = 5.0
# Tokens per UTF-8 byte of a prompt, on the safe side: BPE tokenizers of current teachers read
# about 3.5-4.5 bytes of C++ per token and one token per CJK character (3 bytes).
BYTES_PER_TOKEN = 3.0
MESSAGE_OVERHEAD_TOKENS = 8  # the chat template's role markers per message
NO_FIT_REASON = "prompt does not fit the teacher's context"


def prompt_tokens(messages: Sequence[dict[str, str]]) -> int:
    """A safe upper estimate of the prompt tokens of `messages`."""
    size = sum(len(str(m.get("content", "")).encode("utf-8", "surrogatepass")) for m in messages)
    return math.ceil(size / BYTES_PER_TOKEN) + MESSAGE_OVERHEAD_TOKENS * len(messages)


def _model_window(data: Any, model: str) -> int:
    """The context length a `/v1/models` body gives for `model` (or its only model), 0 if none."""
    entries = data.get("data") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        return 0
    models = [e for e in entries if isinstance(e, dict)]
    chosen = [e for e in models if e.get("id") == model] or (models if len(models) == 1 else [])
    for entry in chosen:
        for key in ("max_model_len", "context_length", "context_window"):
            value = entry.get(key)
            if isinstance(value, int) and value > 0:
                return value
    return 0


def _props_window(data: Any) -> int:
    """llama.cpp's `/props`: the server's n_ctx (per slot settings), 0 if absent."""
    if not isinstance(data, dict):
        return 0
    settings = data.get("default_generation_settings")
    for holder in (settings, data):
        if isinstance(holder, dict):
            value = holder.get("n_ctx")
            if isinstance(value, int) and value > 0:
                return value
    return 0


def _get_json(url: str, api_key: str) -> Any:
    """The JSON body of a GET, or None on any failure (a lookup never stops a run)."""
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {api_key}"})
    try:
        with urllib.request.urlopen(request, timeout=LOOKUP_TIMEOUT_S) as answer:
            return loads_json(answer.read(1 << 20))
    except (OSError, ValueError):  # URLError, HTTPError, timeouts, bodies not JSON or nested too deep
        return None


def ask_server(base_url: str, api_key: str, model: str) -> tuple[int, str]:
    """(context tokens, where they came from), or (0, "") when the server does not say."""
    root = base_url.rstrip("/")
    if not root.startswith(("http://", "https://")):
        return 0, ""
    server_root = root[: -len("/v1")] if root.endswith("/v1") else root
    window = _model_window(_get_json(f"{root}/models", api_key), model)
    if window:
        return window, "server /v1/models"
    window = _props_window(_get_json(f"{server_root}/props", api_key))
    return (window, "server /props") if window else (0, "")


class ContextWindow:
    """The teacher's window in tokens (0: unknown), decided once, when first needed."""

    def __init__(self, configured: int, source: str, base_url: str, api_key: str, model: str) -> None:
        self.tokens = configured
        self.source = source if configured else ""
        self._ask = (base_url, api_key, model) if not configured else None
        self._lock = asyncio.Lock()

    async def resolve(self) -> int:
        if self._ask is None:
            return self.tokens
        async with self._lock:
            if self._ask is not None:
                self.tokens, self.source = await asyncio.to_thread(ask_server, *self._ask)
                self.source = self.source or "unknown"
                self._ask = None
        return self.tokens

    async def overflow(self, messages: Sequence[dict[str, str]], max_tokens: int) -> str:
        """Why `messages` cannot be sent ("" when they fit or the window is unknown)."""
        window = await self.resolve()
        need = prompt_tokens(messages)
        if not window or need + max_tokens <= window:
            return ""
        return (
            f"the prompt is about {need} tokens and the answer may take {max_tokens}, over the teacher's "
            f"context of {window} tokens ({self.source}): give the server a larger context, lower "
            "--max-unit-lines, or use --prompt-style compact"
        )
