"""The cache key of a teacher request.

A request is written once as canonical JSON (sorted keys, no whitespace): the prompt template
version, the model, the generation parameters, the response format and the rendered messages.
That text is what the journal stores, and its SHA-256 is the key: the same request always gets the
same key, and changing any of these (a prompt wording, a temperature, the model) is a new request.
"""

from __future__ import annotations

import hashlib
import json


def request_payload(
    version: str,
    model: str,
    params: dict[str, object],
    response_format: object,
    messages: list[dict[str, str]],
) -> str:
    """The canonical text of a request: what is journaled, and what the cache key hashes."""
    body = {
        "prompt_version": version,
        "model": model,
        "params": params,
        "response_format": response_format,
        "messages": messages,
    }
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def cache_key(payload: str) -> str:
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()
