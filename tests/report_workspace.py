"""A workspace for the report tests, built the way a user builds one: the installed `curate`
command ingests examples/corpus and examples/benchmark, deduplicates, and annotates against the
scripted loopback teacher (tests/servers/openai_server.py), which answers some units well, some
with reasoning the verifier rejects, and refuses one (a teacher failure)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.servers.openai_server import DEFAULT_SECTION_KEYS, ChatRequest, OpenAIServer, Reply

REPO = Path(__file__).resolve().parents[1]
CURATE = Path(sys.executable).with_name("curate")  # the console script of this environment
ANNOTATE_UNITS = 9


def curate(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    done = subprocess.run(
        [str(CURATE), *args], capture_output=True, text=True, env=env, cwd=REPO, timeout=600, check=False
    )
    if check and done.returncode not in (0, 3):  # 3: some units failed, as the script wants
        raise AssertionError(f"curate {' '.join(args)} exited {done.returncode}: {done.stderr}")
    return done


def _bucket(request: ChatRequest) -> int:
    """A stable bucket per unit (its first user message), so every round of a unit lands alike."""
    users = [m for m in request.messages if m.get("role") == "user"]
    first = json.dumps(users[0].get("content", "")) if users else ""
    return int(hashlib.sha256(first.encode()).hexdigest(), 16) % 6


def _script(request: ChatRequest) -> Reply | None:
    """Bucket 0: refused (context window), buckets 1-2: reasoning that names an API that does not
    exist (rejected by grounding.api_exists), the rest: the server's default, accepted answer."""
    if not request.body.get("messages") or not request.body.get("response_format"):
        return None  # the format probe
    bucket = _bucket(request)
    if bucket == 0:
        return Reply.error(
            400, "This model's maximum context length is 2048 tokens (context_length_exceeded)"
        )
    if bucket in (1, 2):
        sections = {key: f"Reasoning about {key.replace('_', ' ')}." for key in DEFAULT_SECTION_KEYS}
        sections["api_choices"] = "The kernel calls `AscendC::FrobnicateTensorX` to fuse the tiles."
        return Reply.ok(json.dumps(sections))
    return None


def build_workspace(ws: Path, benchmark: bool = True, annotate: bool = True) -> Path:
    curate("ingest", str(REPO / "examples" / "corpus"), "-w", str(ws), "--name", "examples")
    if benchmark:
        curate(
            "ingest", str(REPO / "examples" / "benchmark"), "-w", str(ws), "--benchmark", "--name", "bench"
        )
    curate("dedup", "-w", str(ws), "--abstract-identifiers")
    if annotate:
        with OpenAIServer() as server:
            server.script = _script
            curate(
                "annotate", "-w", str(ws), "--base-url", server.url, "--model", "scripted-teacher",
                "--limit", str(ANNOTATE_UNITS), "--retries", "1", "--timeout", "10", "--json",
            )  # fmt: skip
    return ws


if __name__ == "__main__":
    print(build_workspace(Path(sys.argv[1])))
