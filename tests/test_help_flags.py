"""`--help` as a user reads it: a flag takes no value, so no value type is printed beside it
(typer's rich help printed `--version <bool>`, `--json <bool>`); options that take a value keep
theirs. Run through the installed console script, as a user runs it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CURATE = Path(sys.executable).with_name("curate")


def help_of(*command: str) -> str:
    done = subprocess.run(
        [str(CURATE), *command, "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        env={"COLUMNS": "160", "PATH": str(CURATE.parent), "TERM": "dumb"},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("command", [(), ("stats",), ("dedup",), ("annotate",), ("audit",)])
def test_flags_show_no_value_type(command: tuple[str, ...]) -> None:
    text = help_of(*command)
    assert "<bool>" not in text
    assert "--help" in text


def test_options_with_a_value_keep_their_type() -> None:
    text = help_of("dedup")
    line = next(line for line in text.splitlines() if "--threshold" in line)
    assert "<float>" in line
    line = next(line for line in text.splitlines() if "--json" in line)
    assert "<" not in line.split("--json", 1)[1].split("Print", 1)[0]


@pytest.mark.parametrize("command", ["build", "push"])
def test_repeatable_options_show_their_item_type(command: str) -> None:
    text = help_of(command)
    assert "<list[" not in text  # typer's `<list[str]>` for a repeatable option
    flag = "--source" if command == "build" else "--allow-license"
    assert "<str>" in next(line for line in text.splitlines() if flag in line)
