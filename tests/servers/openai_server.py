"""A small, scriptable OpenAI-compatible chat-completions server for tests and benchmarks.

It is a real HTTP/1.1 server on loopback (asyncio streams, keep-alive), so the client under test
goes through its whole transport: connection pool, timeouts, status codes, JSON decoding. What it
answers is decided by the test, request by request:

    with OpenAIServer() as server:                  # default: a valid, instant answer
        server.push(Reply.rate_limited(retry_after=1), Reply.ok("..."))   # then these, in order
        server.script = lambda request: Reply.error(500) if request.index < 2 else None
        ... run the client against server.url ...
        assert server.chat_count() == 4

Order of decision for each chat request: the queue of pushed replies (first in, first out), then
`script(request)` (return None to fall through), then `default(request)`. A `profile`
(`tests.servers.profiles`: vLLM, SGLang, Ollama, the OpenAI API, llama-cpp-python, ...) supplies the
default: which response formats that server takes, how it refuses the others, its error bodies,
`usage` or not, `reasoning_content` beside `content`:

    with OpenAIServer(profile=PROFILES["llama-cpp-python"]) as server: ... Every request is recorded
(`server.requests`) with its parsed body, so a test can count and inspect what was sent.

Run it as a process for benchmarks (the client then has a core of its own):
    python -m tests.servers.openai_server --port 0 [--delay 0.0]   # prints "PORT <n>" when ready
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import hashlib
import json
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

# The sections the annotation task asks for; a default answer fills each one.
DEFAULT_SECTION_KEYS = (
    "analysis",
    "core_split",
    "tiling",
    "pipeline",
    "api_choices",
    "tail_and_dtype",
    "host_tiling",
)


@dataclass
class ChatRequest:
    """One request as the server received it."""

    index: int  # 0-based, over all chat requests this server has seen
    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    body: dict[str, Any]

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", []))

    @property
    def last_user_text(self) -> str:
        users = [m for m in self.messages if m.get("role") == "user"]
        return str(users[-1].get("content", "")) if users else ""

    def conversation_key(self) -> str:
        """Identity of the conversation sent (messages + model + parameters), for duplicate counting."""
        body = {k: v for k, v in self.body.items() if k != "stream"}
        return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


@dataclass
class Reply:
    """What the server sends back for one request."""

    status: int = 200
    content: str | None = None  # assistant content; None: the default answer for the request
    finish_reason: str = "stop"
    headers: dict[str, str] = field(default_factory=dict)
    raw_body: bytes | None = None  # sent as-is instead of a JSON completion (malformed bodies)
    delay_s: float = 0.0  # wait before answering (slow server, or a hang past the client timeout)
    prompt_tokens: int = 0  # 0: estimated from the request size
    completion_tokens: int = 0  # 0: estimated from the content size
    model: str = ""  # "" -> the model the request asked for
    fingerprint: str | None = "fp_test_server"  # None: no system_fingerprint in the body
    usage: bool = True  # False: no `usage` object in the body (some servers send none)
    reasoning: dict[str, str] = field(default_factory=dict)  # e.g. {"reasoning_content": "..."}
    choice_extra: dict[str, Any] = field(default_factory=dict)  # server-specific choice fields
    cut: bool = False  # send half the body, then close the connection (a server dying mid-answer)

    @classmethod
    def ok(cls, content: str | None = None, **kwargs: Any) -> Reply:
        return cls(content=content, **kwargs)

    @classmethod
    def truncated(cls, content: str) -> Reply:
        """A completion cut at max_tokens: finish_reason "length"."""
        return cls(content=content, finish_reason="length")

    @classmethod
    def rate_limited(cls, retry_after: float | None = 1.0) -> Reply:
        headers = {} if retry_after is None else {"retry-after": f"{retry_after:g}"}
        body = json.dumps({"error": {"message": "rate limited", "type": "rate_limit_error"}}).encode()
        return cls(status=429, headers=headers, raw_body=body)

    @classmethod
    def error(cls, status: int = 500, message: str = "internal error") -> Reply:
        body = json.dumps({"error": {"message": message, "type": "server_error"}}).encode()
        return cls(status=status, raw_body=body)

    @classmethod
    def malformed(cls) -> Reply:
        """HTTP 200 with a body that is not JSON."""
        return cls(raw_body=b'{"id": "chatcmpl-broken", "choices": [ {"message": ')

    @classmethod
    def cut_off(cls) -> Reply:
        """Headers and half the body, then the connection closes: an answer cut mid-body."""
        return cls(cut=True)

    @classmethod
    def hang(cls, seconds: float = 30.0) -> Reply:
        return cls(delay_s=seconds)


Script = Callable[[ChatRequest], Reply | None]


_KERNEL_CODE_RE = re.compile(r"<kernel_code>(.*?)</kernel_code>", re.DOTALL)
_NAME_RE = re.compile(r"\b[A-Za-z_]\w*(?:[A-Z_0-9])\w*\b")


def _kernel_names(request: ChatRequest) -> list[str]:
    """Distinctive identifiers of the kernel the request shows (camelCase, snake_case, CAPS)."""
    text = " ".join(str(m.get("content", "")) for m in request.messages if isinstance(m, dict))
    code = "\n".join(_KERNEL_CODE_RE.findall(text))
    code = re.sub(r"/\*.*?\*/|//[^\n]*", " ", code, flags=re.DOTALL)
    names = [n for n in _NAME_RE.findall(code) if len(n) >= 4 and not n.startswith("__")]
    return list(dict.fromkeys(names))


def default_answer(request: ChatRequest) -> str:
    """A well-formed answer in the format the request asked for (JSON schema, or tagged sections),
    naming a few identifiers of the kernel the request shows in every section (the grounding
    verifier rejects answers with none of the unit's own facts)."""
    names = _kernel_names(request)
    sections = {}
    for i, key in enumerate(DEFAULT_SECTION_KEYS):
        about = ", ".join(f"`{n}`" for n in names[2 * i : 2 * i + 2]) or "its own code"
        sections[key] = f"Reasoning about {key.replace('_', ' ')} for this kernel, around {about}."
    if request.body.get("response_format"):
        return json.dumps(sections)
    return "\n".join(f"<{key}>\n{text}\n</{key}>" for key, text in sections.items())


def completion_body(request: ChatRequest, reply: Reply, content: str) -> bytes:
    prompt_tokens = reply.prompt_tokens or max(1, len(json.dumps(request.messages)) // 4)
    completion_tokens = reply.completion_tokens or max(1, len(content) // 4)
    body: dict[str, Any] = {
        "id": f"chatcmpl-{request.index}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": reply.model or str(request.body.get("model", "test-model")),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, **reply.reasoning},
                "finish_reason": reply.finish_reason,
                **reply.choice_extra,
            }
        ],
    }
    if reply.fingerprint is not None:
        body["system_fingerprint"] = reply.fingerprint
    if reply.usage:
        body["usage"] = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        }
    return json.dumps(body).encode()


_REASONS = {
    200: "OK",
    400: "Bad Request",
    401: "Unauthorized",
    404: "Not Found",
    422: "Unprocessable Entity",
    429: "Too Many Requests",
    500: "Internal Server Error",
}


class OpenAIServer:
    """The server, running its own event loop in a background thread (or in the foreground: `serve`)."""

    def __init__(
        self,
        script: Script | None = None,
        replies: Iterable[Reply] = (),
        default: Callable[[ChatRequest], Reply] | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        profile: Any = None,  # a tests.servers.profiles.ServerProfile: its answers are the default
    ) -> None:
        self.script = script
        self.profile = profile
        self.default = default or (profile.answer if profile is not None else (lambda request: Reply()))
        self.host = host
        self.port = port
        self.requests: list[ChatRequest] = []
        self._queue: collections.deque[Reply] = collections.deque(replies)
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.Server | None = None
        self._ready = threading.Event()
        self._handlers: set[asyncio.Task[Any]] = set()
        self.record_bodies = True  # benchmarks turn this off to keep memory flat
        self.model_info: dict[str, Any] = {}  # extra fields of each /v1/models entry (vLLM: max_model_len)
        self.props: dict[str, Any] | None = None  # llama.cpp's GET /props body; None: 404
        self.lookups: list[str] = []  # paths of the GET requests (models, props) received

    # -- scripting ------------------------------------------------------------------------------
    def push(self, *replies: Reply) -> None:
        with self._lock:
            self._queue.extend(replies)

    def chat_count(self) -> int:
        with self._lock:
            return sum(1 for r in self.requests if r.path.endswith("/chat/completions"))

    def chat_requests(self) -> list[ChatRequest]:
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")]

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def _decide(self, request: ChatRequest) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.script is not None:
            reply = self.script(request)
            if reply is not None:
                return reply
        return self.default(request)

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> OpenAIServer:
        self._thread = threading.Thread(target=self._run_thread, name="openai-test-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("test server did not start")
        return self

    def stop(self) -> None:
        loop = self._loop
        if loop is None or self._thread is None:
            return
        loop.call_soon_threadsafe(self._shutdown)
        self._thread.join(10)
        self._loop = None

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run_thread(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        loop.run_until_complete(self._bind())
        self._ready.set()
        loop.run_forever()
        loop.run_until_complete(self._close())
        loop.close()

    def _shutdown(self) -> None:
        assert self._loop is not None
        self._loop.stop()

    async def _bind(self) -> None:
        self._server = await asyncio.start_server(self._handle, self.host, self.port, backlog=1024)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._handlers):
            task.cancel()
        await asyncio.gather(*self._handlers, return_exceptions=True)

    async def serve_forever(self, on_ready: Callable[[int], None]) -> None:
        """Foreground mode (the `python -m` entry point)."""
        await self._bind()
        on_ready(self.port)
        assert self._server is not None
        async with self._server:
            await self._server.serve_forever()

    # -- HTTP -----------------------------------------------------------------------------------
    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        try:
            while await self._one_exchange(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass  # the client went away (or was killed): nothing to answer
        except asyncio.CancelledError:
            pass  # server shutdown while a reply was delayed; ending the handler quietly is the point
        finally:
            self._handlers.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _one_exchange(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        method, path, _ = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                name, value = line.split(":", 1)
                headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0") or 0)
        raw = await reader.readexactly(length) if length else b""
        keep_alive = headers.get("connection", "").lower() != "close"

        if method == "GET":
            with self._lock:
                self.lookups.append(path)
        if method == "GET" and path.rstrip("/") == "/props" and self.props is not None:
            await self._send(writer, 200, json.dumps(self.props).encode(), {}, keep_alive)
            return keep_alive
        if method == "GET" and path.rstrip("/").endswith("/models"):
            names = self.profile.models if self.profile is not None else ("test-model",)
            data = [{"id": name, "object": "model", **self.model_info} for name in names]
            body = json.dumps({"object": "list", "data": data}).encode()
            await self._send(writer, 200, body, {}, keep_alive)
            return keep_alive
        if not path.endswith("/chat/completions"):
            await self._send(writer, 404, b'{"error": {"message": "not found"}}', {}, keep_alive)
            return keep_alive

        try:
            body_json = json.loads(raw) if raw else {}
        except json.JSONDecodeError:
            await self._send(
                writer, 400, b'{"error": {"message": "request body is not JSON"}}', {}, keep_alive
            )
            return keep_alive
        with self._lock:
            request = ChatRequest(len(self.requests), method, path, headers, body_json)
            self.requests.append(
                request if self.record_bodies else ChatRequest(request.index, method, path, {}, {})
            )
        reply = self._decide(request)
        if reply.delay_s:
            await asyncio.sleep(reply.delay_s)
        if reply.raw_body is not None:
            payload = reply.raw_body
        else:
            content = reply.content if reply.content is not None else default_answer(request)
            payload = completion_body(request, reply, content)
        await self._send(writer, reply.status, payload, reply.headers, keep_alive, cut=reply.cut)
        return keep_alive and not reply.cut

    @staticmethod
    async def _send(
        writer: asyncio.StreamWriter,
        status: int,
        body: bytes,
        headers: dict[str, str],
        keep_alive: bool,
        cut: bool = False,
    ) -> None:
        head = [
            f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}",
            "content-type: application/json",
            f"content-length: {len(body)}",
            f"connection: {'keep-alive' if keep_alive else 'close'}",
            *(f"{name}: {value}" for name, value in headers.items()),
        ]
        writer.write(
            ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body[: len(body) // 2 if cut else None]
        )
        await writer.drain()
        if cut:
            writer.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Scriptable OpenAI-compatible test server (instant answers)."
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before each answer")
    args = parser.parse_args(argv)
    server = OpenAIServer(default=lambda request: Reply(delay_s=args.delay), host=args.host, port=args.port)
    server.record_bodies = False

    def ready(port: int) -> None:
        print(f"PORT {port}", flush=True)

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(server.serve_forever(ready))


if __name__ == "__main__":
    main(sys.argv[1:])
