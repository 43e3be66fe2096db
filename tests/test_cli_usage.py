"""The installed `curate` command as a user meets it: every usage mistake is one line on stderr
and exit 2 (never a traceback), `curate` alone prints the help, `curate --version` works. Run as
a subprocess of the console script, not through CliRunner, so the installed typer/click are what
is tested."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from curate import __version__

CURATE = Path(sys.executable).with_name("curate")


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CURATE), *args], capture_output=True, text=True, timeout=120, cwd=cwd)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["ingset"], "No such command 'ingset'"),
        (["audit", "x"], "Missing argument"),
        (["dedup", "--threshold", "abc"], "--threshold"),
        (["ingest"], "Missing argument"),
        (["stats", "--no-such-option"], "--no-such-option"),
        (["dedup", "--threshold", "2"], "--threshold: threshold must be in (0, 1]"),
        (["check-kernel", "k.cpp", "--soc", "Ascend123"], "--soc: unknown SoC 'Ascend123'"),
    ],
)
def test_a_usage_mistake_is_one_line_and_exit_2(args: list[str], says: str, tmp_path: Path) -> None:
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_curate_alone_prints_the_help_and_exits_0() -> None:
    done = run()
    assert done.returncode == 0 and "Usage: curate" in done.stdout and "ingest" in done.stdout


def test_version() -> None:
    done = run("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"curate {__version__}"
