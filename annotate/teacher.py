"""The transport to the teacher: one chat completion, with retries, backoff, limits and a timeout.

It knows nothing about kernels or prompts. It uses the `openai` SDK against any OpenAI-compatible
endpoint (OpenAI, DeepSeek-style hosted APIs, vLLM, SGLang, Ollama, llama.cpp), with the SDK's own
retries turned off so that this module decides. The body is read as plain JSON, because servers
differ in what they put there: `reasoning_content` (vLLM, SGLang) or `reasoning` (Ollama, newer
vLLM) beside `content`, `refusal` (OpenAI), no `usage`, an error object inside an HTTP 200 (gateways).

How each answer is classified:
- 429 / 408 / 409, other 5xx, timeouts, connection errors, malformed bodies: transient, retried with
  exponential backoff and jitter, honouring `Retry-After` (and pausing every worker). Until the
  endpoint has answered once, a refused connection is given up after one retry: nothing listens.
- a refusal of the `response_format` field, in whatever shape the server sends it (400, 422, a 500
  validation error as llama-cpp-python's server answers `json_schema`, or an error inside a 200):
  `FormatUnsupported`, never retried; the caller steps down to a simpler format.
- a request the server refused as invalid (other 4xx, a 5xx that is a validation error, a prompt
  over the context window): final for that request, never retried.
- 401/403 (the key) and 404 (the URL or the model): `TeacherFatal`, the run stops.

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

from annotate.limits import RateLimiter
from schemas.nesting import TOO_DEEP, loads_json

RETRYABLE_STATUS = {408, 409, 429}
MAX_RETRY_AFTER_S = 600.0
CONNECTIONS_PER_CLIENT = 8
# What a server's refusal of the response_format field talks about (in its message or body).
FORMAT_WORDS = ("response_format", "json_schema", "json_object", "grammar")
# A 5xx whose body says this: the request itself was refused as invalid, asking again cannot help.
VALIDATION_WORDS = ("validation error", "literal_error", "input should be", "invalid_request_error")
CONTEXT_WORDS = (
    "context_length_exceeded",
    "maximum context length",
    "context window",
    "context length",
    "context size",
)
FORMAT_REFUSAL_STATUS = {400, 422, 500, 501}


@dataclass(slots=True)
class TeacherReply:
    content: str
    finish_reason: str
    model: str
    fingerprint: str
    prompt_tokens: int  # 0 when the server reports no usage
    completion_tokens: int
    latency_s: float
    reasoning: str = ""  # a reasoning model's own thinking (reasoning_content / reasoning), kept aside


class TeacherError(Exception):
    """A request that failed for good (after retries, or a non-retryable error).

    `kind` says what failed (transport, http, context, format, auth, not_found, stopped); `reason`
    is short and stable (no request ids, no server text), so failures of a run can be grouped.
    """

    def __init__(self, kind: str, message: str, reason: str = "") -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.reason = reason or kind


class FormatUnsupported(TeacherError):
    """The server refused the `response_format` field of a structured request."""


class TeacherFatal(TeacherError):
    """No request can succeed (bad key, wrong URL or model, a dead endpoint): the run stops.
    The message says what to fix."""


@dataclass
class TransportStats:
    sent: int = 0  # HTTP requests sent: every attempt, retries and format probes included
    retries: int = 0
    rate_limited: int = 0
    timeouts: int = 0
    server_errors: int = 0
    malformed: int = 0
    connection_errors: int = 0


# No real answer comes near this (the verifiers reject anything over 60,000 characters). A reply
# over it is journaled cut to this size, marked, and fails its unit at once: a runaway or hostile
# answer (10 MB) neither fills the journal, round after round, nor goes back to the teacher.
MAX_ANSWER_CHARS = 262_144
OVERSIZED = "oversized"  # the finish reason such a reply is journaled with
OVERSIZED_MARK = f"\n[... cut by curate: the answer was longer than {MAX_ANSWER_CHARS} characters]"


def _cause_text(exc: BaseException) -> str:
    """The innermost cause's message (openai's wrapper says only "Connection error.")."""
    while exc.__cause__ is not None or exc.__context__ is not None:
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return str(exc) or type(exc).__name__


def _cut_mid_body(exc: BaseException) -> bool:
    """A response whose body ended before its declared length (httpx's RemoteProtocolError:
    "peer closed connection without sending complete message body")."""
    text = _cause_text(exc).lower()
    return "incomplete" in text or "complete message body" in text


def what_to_fix(reason: str, base_url: str) -> str:
    """The one thing to do about a failure reason that hit unit after unit."""
    if reason == "truncated response":
        return f"the server at {base_url} closes connections in the middle of its answers: see its log (a crash, or a proxy's size or time limit)"
    if reason == "connection error":
        return f"nothing answers at {base_url}: start the server or fix --base-url"
    if reason == "timeout":
        return "the teacher does not answer in time: raise --timeout or lower --concurrency"
    if reason.startswith("rate limited"):
        return "the teacher keeps rate-limiting: lower --concurrency or set --rpm / --tpm"
    if reason == "malformed response":
        return f"{base_url} does not answer like an OpenAI chat-completions API: check --base-url (it usually ends in /v1)"
    if reason == "context window exceeded":
        return "the prompts do not fit the server's context: give the server a larger context (and --context-tokens), lower --max-unit-lines or --max-tokens, or use --prompt-style compact"
    if reason.startswith("server error"):
        return "the teacher's server keeps failing: see its log"
    return "the teacher refuses these requests: check --model and the generation options"


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
        self.base_url = base_url
        self.model = model
        self.timeout_s = timeout_s
        self.retries = retries
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.limiter = limiter
        self.stats = TransportStats()
        self.answered = False  # the endpoint has answered at least once (with any HTTP status)
        self._secret = api_key
        self._slots = asyncio.Semaphore(concurrency)
        import openai  # here, not at module level: importing the SDK costs about a second

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
        retries: int | None = None,
    ) -> TeacherReply:
        """One chat completion, retried until it succeeds, fails for good, or retries run out."""
        budget = self.retries if retries is None else retries
        last = _Retry("no attempt made", "no attempt made")
        attempts = 0
        for attempt in range(budget + 1):
            attempts = attempt + 1
            await self.limiter.acquire(estimated_tokens)
            try:
                async with self._slots:
                    reply = await self._send(messages, params, response_format)
                spent = reply.prompt_tokens + reply.completion_tokens
                self.limiter.settle(estimated_tokens, spent or estimated_tokens)  # no usage: the estimate
                return reply
            except _Retry as retry:
                last = retry
                nothing_listens = (
                    retry.reason_key == "connection error" and not self.answered and attempt >= 1
                )
                if attempt == budget or nothing_listens:
                    break
                self.stats.retries += 1
                delay = self._backoff(attempt)
                if retry.after is not None:
                    delay = min(retry.after, MAX_RETRY_AFTER_S) * random.uniform(1.0, 1.1)
                    self.limiter.pause_until(time.monotonic() + delay)
                await asyncio.sleep(delay)
        raise TeacherError(
            "transport", f"gave up after {attempts} attempts; last error: {last.message}", last.reason_key
        )

    async def _send(
        self, messages: list[dict[str, str]], params: dict[str, Any], response_format: dict[str, Any] | None
    ) -> TeacherReply:
        # The request body goes in as plain JSON (`extra_body`): the SDK would otherwise walk
        # every message through its type-directed transform, the largest CPU cost per request.
        import openai  # already loaded by __init__: a dictionary look-up

        body: dict[str, Any] = {"messages": messages, **params}
        if response_format is not None:
            body["response_format"] = response_format
        self._turn = (self._turn + 1) % len(self._clients)
        client = self._clients[self._turn]
        self.stats.sent += 1
        started = time.perf_counter()
        try:
            async with asyncio.timeout(self.timeout_s + 1.0):  # a server that trickles bytes
                raw = await client.chat.completions.with_raw_response.create(
                    model=self.model, messages=[], extra_body=body
                )
                payload = raw.http_response.content
        except (TimeoutError, openai.APITimeoutError):
            self.stats.timeouts += 1
            raise _Retry(f"no answer within {self.timeout_s:g} s", "timeout") from None
        except openai.APIConnectionError as exc:
            if _cut_mid_body(exc):  # the server answered, then closed before the body was whole
                self.answered = True
                self.stats.malformed += 1
                raise _Retry(
                    f"the answer was cut off mid-body: {self.redact(_cause_text(exc))}", "truncated response"
                ) from None
            self.stats.connection_errors += 1
            raise _Retry(f"connection error: {self.redact(str(exc))}", "connection error") from None
        except openai.APIStatusError as exc:
            self.answered = True
            said = f"{exc.message} {_as_json(exc.body) if exc.body is not None else ''}"
            error = self._refused(
                exc.status_code, str(exc.message), said, exc.response.headers, response_format
            )
            raise error from None
        self.answered = True
        latency = time.perf_counter() - started
        try:
            data = loads_json(payload)  # nested too deep for Python: a JSONDecodeError too
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise self._malformed(payload, exc) from None
        try:
            embedded = _embedded_error(data)
            if embedded is not None:  # an error object inside an HTTP 200 (gateways, serverless hosts)
                status, said = embedded
                raise self._refused(status, said, json.dumps(data), None, response_format)
            return self._reply(data, latency)
        except RecursionError:  # loaded, but a value too deep to write out as text (`str`, `json.dumps`)
            raise self._malformed(payload, None) from None

    def _malformed(self, payload: bytes, exc: ValueError | None) -> _Retry:
        """A body that is not a JSON completion we can read (counted, retried): not JSON at all,
        or nested too deep for Python (`exc` None: too deep to write out once loaded)."""
        self.stats.malformed += 1
        deep = exc is None or (isinstance(exc, json.JSONDecodeError) and exc.msg == TOO_DEEP)
        text = self.redact(payload[:200].decode("utf-8", "replace"))
        return _Retry(
            f"malformed response body ({TOO_DEEP if deep else 'not JSON'}): {text}", "malformed response"
        )

    def _reply(self, data: dict[str, Any], latency: float) -> TeacherReply:
        choices = data.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            choices = [{}]
        choice = choices[0]
        message = choice.get("message")
        if not isinstance(message, dict):
            self.stats.malformed += 1
            raise _Retry("malformed response: no choices[0].message in the body", "malformed response")
        usage: dict[str, Any] = data["usage"] if isinstance(data.get("usage"), dict) else {}
        content = _text(message.get("content"))
        finish_reason = str(choice.get("finish_reason") or "")
        if not content and _text(message.get("refusal")):
            finish_reason = "refusal"  # OpenAI: the model declined; the text is in `refusal`
            content = _text(message.get("refusal"))
        if len(content) > MAX_ANSWER_CHARS:  # kept cut, and judged a failure (annotate.loop)
            content, finish_reason = content[:MAX_ANSWER_CHARS] + OVERSIZED_MARK, OVERSIZED
        return TeacherReply(
            content=content,
            finish_reason=finish_reason,
            model=str(data.get("model") or self.model),
            fingerprint=str(data.get("system_fingerprint") or ""),
            prompt_tokens=_count(usage.get("prompt_tokens")),
            completion_tokens=_count(usage.get("completion_tokens")),
            latency_s=latency,
            reasoning=_text(message.get("reasoning_content") or message.get("reasoning")),
        )

    def _refused(
        self, status: int, message: str, said: str, headers: Any, response_format: dict[str, Any] | None
    ) -> Exception:
        """The exception for an error answer: a format refusal, retryable, final, or fatal."""
        text = self.redact(" ".join(message.split()))[:300]
        lowered = said.lower()
        if (
            response_format is not None
            and status in FORMAT_REFUSAL_STATUS
            and any(word in lowered for word in FORMAT_WORDS)
        ):
            return FormatUnsupported(
                "format",
                f"HTTP {status}: the server refuses response_format {response_format.get('type')!r} ({text})",
                f"response_format refused (HTTP {status})",
            )
        if status == 429:
            self.stats.rate_limited += 1
            return _Retry(f"HTTP 429 rate limited: {text}", "rate limited (HTTP 429)", _retry_after(headers))
        if status in (401, 403):
            return TeacherFatal(
                "auth",
                f"HTTP {status}: the teacher refused the API key ({text}); check the key and --api-key-env",
            )
        if status == 404:
            return TeacherFatal("not_found", f"HTTP 404: wrong --base-url or unknown --model ({text})")
        if any(word in lowered for word in CONTEXT_WORDS):
            return TeacherError("context", f"HTTP {status}: {text}", "context window exceeded")
        if status >= 500 and any(word in lowered for word in VALIDATION_WORDS):
            return TeacherError(
                "http",
                f"HTTP {status}: the server refused the request as invalid ({text})",
                f"request refused (HTTP {status})",
            )
        if status >= 500 or status in RETRYABLE_STATUS:
            self.stats.server_errors += 1
            return _Retry(f"HTTP {status}: {text}", f"server error (HTTP {status})", _retry_after(headers))
        return TeacherError("http", f"HTTP {status}: {text}", f"request refused (HTTP {status})")


def _retry_after(headers: Any) -> float | None:
    return parse_retry_after(headers) if headers is not None else None


def _embedded_error(data: Any) -> tuple[int, str] | None:
    """(status, message) of an error object sent with HTTP 200, or None for a normal body."""
    if not isinstance(data, dict):
        return (502, "the body is not a JSON object")
    error = data.get("error")
    if data.get("object") == "error":
        error = data
    if not error or data.get("choices"):
        return None
    if isinstance(error, str):
        return (500, error)
    if not isinstance(error, dict):
        return (500, str(error))
    code = error.get("code")
    status = code if isinstance(code, int) and 400 <= code < 600 else 500
    return (status, str(error.get("message") or error))


def _as_json(value: Any) -> str:
    """An error body as JSON text, "" when it is nested too deep to write out (a hostile server)."""
    try:
        return json.dumps(value)
    except RecursionError:
        return ""


def _text(value: Any) -> str:
    """Message content as text: a string, or a list of content parts (some servers send parts)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(str(p.get("text") or "") if isinstance(p, dict) else str(p) for p in value)
    return ""


def _count(value: Any) -> int:
    return value if isinstance(value, int) and value > 0 else 0


def _plain_http_client() -> Any:
    """An HTTP client for a plain-http endpoint (a local server): there is no TLS to verify, so
    do not load a CA store for every pool (tens of milliseconds each)."""
    import openai

    return openai.DefaultAsyncHttpxClient(verify=False)


class _Retry(Exception):
    def __init__(self, message: str, reason_key: str, after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reason_key = reason_key  # short and stable, for the failure summary
        self.after = after
