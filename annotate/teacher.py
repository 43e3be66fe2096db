"""The transport to the teacher: one chat completion, with retries, backoff, limits and a timeout.

It knows nothing about kernels or prompts. It uses the `openai` SDK against any OpenAI-compatible
endpoint (OpenAI, DeepSeek-style hosted APIs, vLLM, SGLang, llama.cpp), with the SDK's own retries
turned off so that this module decides: 429 / 408 / 409 / 5xx / timeouts / connection errors /
malformed bodies are retried with exponential backoff and jitter, honouring `Retry-After` (and
pausing every worker, not only the one that was told to wait); other 4xx are final.

The API key is passed in by the caller (read from the environment by the CLI) and is removed
from every error message this module produces, in case a server echoes it back.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import random
import time
from dataclasses import dataclass
from typing import Any

import openai

from annotate.limits import RateLimiter

RETRYABLE_STATUS = {408, 409, 429}
MAX_RETRY_AFTER_S = 600.0
CONNECTIONS_PER_CLIENT = 8


@dataclass(slots=True)
class TeacherReply:
    content: str
    finish_reason: str
    model: str
    fingerprint: str
    prompt_tokens: int
    completion_tokens: int
    latency_s: float


class TeacherError(Exception):
    """A request that failed for good (after retries, or a non-retryable error)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message


class FormatUnsupported(TeacherError):
    """The server refused the `response_format` field (HTTP 400/422 on a structured request)."""


class TeacherFatal(TeacherError):
    """No request can succeed (bad key, wrong URL or model): the run should stop."""


@dataclass
class TransportStats:
    retries: int = 0
    rate_limited: int = 0
    timeouts: int = 0
    server_errors: int = 0
    malformed: int = 0
    connection_errors: int = 0


def parse_retry_after(headers: Any, now: float | None = None) -> float | None:
    """Seconds to wait from `retry-after-ms` / `Retry-After` (seconds or an HTTP date), or None."""
    if headers is None:
        return None
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000.0)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class TeacherClient:
    def __init__(
        self,
        *,
        base_url: str,
        api_key: str,
        model: str,
        timeout_s: float,
        retries: int,
        backoff_base_s: float,
        backoff_max_s: float,
        limiter: RateLimiter,
        concurrency: int,
    ) -> None:
        self.model = model
        self.timeout_s = timeout_s
        self.retries = retries
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.limiter = limiter
        self.stats = TransportStats()
        self._secret = api_key
        self._slots = asyncio.Semaphore(concurrency)
        # Several SDK clients, used in turn: the HTTP pool scans every pooled connection (and
        # probes the idle ones) on each request, so 8 pools of 8 connections cost far less CPU
        # than one pool of 64 at high concurrency.
        self._clients = [
            openai.AsyncOpenAI(
                base_url=base_url,
                api_key=api_key,
                max_retries=0,  # retries are ours: Retry-After, shared pauses, counting
                timeout=timeout_s,
                http_client=_plain_http_client() if base_url.startswith("http://") else None,
            )
            for _ in range(max(1, -(-concurrency // CONNECTIONS_PER_CLIENT)))
        ]
        self._turn = 0

    async def close(self) -> None:
        for client in self._clients:
            await client.close()

    def redact(self, text: str) -> str:
        return text.replace(self._secret, "[redacted]") if len(self._secret) >= 4 else text

    def _backoff(self, attempt: int) -> float:
        cap = min(self.backoff_max_s, self.backoff_base_s * (2**attempt))
        return cap / 2 + random.uniform(0, cap / 2)  # "equal jitter": spread out, never zero

    async def complete(
        self,
        messages: list[dict[str, str]],
        params: dict[str, Any],
        response_format: dict[str, Any] | None,
        estimated_tokens: int,
    ) -> TeacherReply:
        """One chat completion, retried until it succeeds, fails for good, or retries run out."""
        last = "no attempt made"
        for attempt in range(self.retries + 1):
            await self.limiter.acquire(estimated_tokens)
            try:
                async with self._slots:
                    reply = await self._send(messages, params, response_format)
                self.limiter.settle(estimated_tokens, reply.prompt_tokens + reply.completion_tokens)
                return reply
            except _Retry as retry:
                last = retry.reason
                if attempt == self.retries:
                    break
                self.stats.retries += 1
                delay = self._backoff(attempt)
                if retry.after is not None:
                    delay = min(retry.after, MAX_RETRY_AFTER_S) * random.uniform(1.0, 1.1)
                    self.limiter.pause_until(time.monotonic() + delay)
                await asyncio.sleep(delay)
        raise TeacherError("transport", f"gave up after {self.retries + 1} attempts; last error: {last}")

    async def _send(
        self, messages: list[dict[str, str]], params: dict[str, Any], response_format: dict[str, Any] | None
    ) -> TeacherReply:
        # The request body goes in as plain JSON (`extra_body`): the SDK would otherwise walk
        # every message through its type-directed transform, the largest CPU cost per request.
        body: dict[str, Any] = {"messages": messages, **params}
        if response_format is not None:
            body["response_format"] = response_format
        self._turn = (self._turn + 1) % len(self._clients)
        client = self._clients[self._turn]
        started = time.perf_counter()
        try:
            async with asyncio.timeout(self.timeout_s + 1.0):  # a server that trickles bytes
                completion = await client.chat.completions.create(
                    model=self.model, messages=[], extra_body=body
                )
        except (TimeoutError, openai.APITimeoutError):
            self.stats.timeouts += 1
            raise _Retry(f"no answer within {self.timeout_s:g} s") from None
        except openai.APIConnectionError as exc:
            self.stats.connection_errors += 1
            raise _Retry(f"connection error: {self.redact(str(exc))}") from None
        except openai.APIStatusError as exc:
            raise self._status_error(exc, response_format is not None) from None
        except (json.JSONDecodeError, openai.APIResponseValidationError) as exc:
            self.stats.malformed += 1
            raise _Retry(f"malformed response body: {self.redact(str(exc))[:200]}") from None
        latency = time.perf_counter() - started
        choices = getattr(completion, "choices", None)
        if not choices or getattr(choices[0], "message", None) is None:
            self.stats.malformed += 1
            raise _Retry("malformed response: no choices[0].message in the body")
        choice = choices[0]
        usage = completion.usage
        return TeacherReply(
            content=choice.message.content or "",
            finish_reason=str(choice.finish_reason or ""),
            model=str(completion.model or self.model),
            fingerprint=str(getattr(completion, "system_fingerprint", "") or ""),
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            latency_s=latency,
        )

    def _status_error(self, exc: openai.APIStatusError, structured: bool) -> Exception:
        status = exc.status_code
        message = self.redact(str(exc.message))[:300]
        if status == 429:
            self.stats.rate_limited += 1
            return _Retry(f"HTTP 429 rate limited: {message}", parse_retry_after(exc.response.headers))
        if status >= 500 or status in RETRYABLE_STATUS:
            self.stats.server_errors += 1
            return _Retry(f"HTTP {status}: {message}", parse_retry_after(exc.response.headers))
        said = f"{exc.message} {exc.body}".lower()
        if status in (400, 422) and structured and any(w in said for w in ("response_format", "json_schema")):
            return FormatUnsupported("format", f"HTTP {status}: the server does not accept response_format")
        if status in (401, 403):
            return TeacherFatal("auth", f"HTTP {status}: the teacher refused the API key ({message})")
        if status == 404:
            return TeacherFatal("not_found", f"HTTP 404: wrong --base-url or unknown --model ({message})")
        return TeacherError("http", f"HTTP {status}: {message}")


def _plain_http_client() -> Any:
    """An HTTP client for a plain-http endpoint (a local server): there is no TLS to verify, so
    do not load a CA store for every pool (tens of milliseconds each)."""
    return openai.DefaultAsyncHttpxClient(verify=False)


class _Retry(Exception):
    def __init__(self, reason: str, after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.after = after
