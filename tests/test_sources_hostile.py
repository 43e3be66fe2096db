"""Hostile SOURCE arguments, through the `curate` command: credentials in a clone URL are never
printed or kept, git's own reason is shown, a SOURCE that starts with `-` never reaches git as an
option, a bad jsonl line is named by file and line, and a mistyped path fails at once instead of
spending minutes on Hub retries."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from tests.conftest import EXAMPLES, run_curate

KERNEL = 'extern "C" __global__ __aicore__ void k(GM_ADDR x) { AscendC::Abs(x, x, 8); }\n'


def _one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def _repository(root: Path) -> Path:
    """A bare git repository holding one kernel."""
    work = root / "work"
    (work / "op_kernel").mkdir(parents=True)
    (work / "op_kernel" / "k.cpp").write_text(KERNEL, encoding="utf-8")
    _git("init", "-q", cwd=work)
    _git("add", ".", cwd=work)
    _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "k", cwd=work)
    _git("clone", "-q", "--bare", str(work), str(root / "src.git"), cwd=root)
    return root / "src.git"


def test_a_clone_password_is_neither_printed_nor_kept(tmp_path: Path) -> None:
    refused = run_curate(
        "ingest", "https://someone:hunter2pw@127.0.0.1:9/none.git", "-w", str(tmp_path / "a")
    )
    line = _one_line_error(refused)
    assert "hunter2pw" not in refused.stderr + refused.stdout
    assert "127.0.0.1:9/none.git" in line
    assert not line.rstrip().endswith("and the repository exists.")  # git's advice, not its reason

    bare = _repository(tmp_path)
    ws = tmp_path / "ws"
    done = run_curate("ingest", f"file://someone:hunter2pw@localhost{bare}", "-w", str(ws), "--name", "r")
    assert done.returncode == 0, done.stderr
    assert "hunter2pw" not in done.stdout + done.stderr
    kept = [p for p in ws.rglob("*") if p.is_file() and b"hunter2pw" in p.read_bytes()]
    assert kept == []  # not in the clone's .git/config, the tables or the reports


def test_a_source_starting_with_a_dash_is_never_a_git_option(tmp_path: Path) -> None:
    planted = tmp_path / "planted"
    source = f"--template={planted}/x.git"
    done = run_curate("ingest", "-w", str(tmp_path / "ws"), "--", source)
    _one_line_error(done)
    assert not planted.exists()


def test_a_bad_jsonl_line_is_named_by_file_and_line(tmp_path: Path) -> None:
    train = tmp_path / "train.jsonl"
    train.write_text('{"code": "int a;"}\n{"code": "int b;"}\n{"code": \n', encoding="utf-8")
    line = _one_line_error(
        run_curate("audit", str(train), str(EXAMPLES / "benchmark"), "--report-dir", str(tmp_path / "r"))
    )
    assert f"{train}:3" in line


def test_a_mistyped_path_fails_at_once(tmp_path: Path) -> None:
    # The first folder exists here: a typo of a path, never a dataset id to look up.
    started = time.monotonic()
    line = _one_line_error(run_curate("audit", "examples/corpsu", str(EXAMPLES / "benchmark")))
    assert "examples/corpsu" in line
    # Something that could be a dataset id, with the Hub unreachable (a closed loopback port).
    line = _one_line_error(
        run_curate(
            "audit",
            "someorg/sometrain",
            str(EXAMPLES / "benchmark"),
            "--report-dir",
            str(tmp_path / "r"),
            env={"HF_ENDPOINT": "http://127.0.0.1:9", "HF_HUB_OFFLINE": ""},
        )
    )
    assert "cannot be reached" in line
    assert time.monotonic() - started < 60  # two process starts; the Hub retries alone took 28 s
