"""`curate --help`, `--version` and a command's `--help` answer without importing the heavy
libraries the stages need (the SDKs, dataframes, libclang, ray, plotting): each is asked in a fresh
interpreter, which then lists what it imported. Not a timing test: what is never imported costs
nothing. Also: every command of the registry loads, registers its own name, and is listed with
the start of its own docstring."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from curate.commands import COMMANDS

REPO = Path(__file__).resolve().parents[1]

# Seconds each on a cold start (issue 30): none of these may load for help or version.
HEAVY = (
    "openai",
    "datasets",
    "polars",
    "pyarrow",
    "numpy",
    "pydantic",
    "clang",
    "numba",
    "ray",
    "matplotlib",
    "huggingface_hub",
    "rich",
    "httpx",
)


PROBE = """
import json, sys
watched = set(json.loads(sys.argv[2]))
sys.argv = ["curate", *json.loads(sys.argv[1])]
from curate.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
heavy = sorted({m.split(".")[0] for m in sys.modules} & watched)
print("\\nIMPORTED " + json.dumps({"code": code, "heavy": heavy}))
"""


def imported_by(*args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(args), json.dumps(HEAVY)],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    line = done.stdout.strip().splitlines()[-1]
    assert line.startswith("IMPORTED "), done.stdout + done.stderr
    return dict(json.loads(line.removeprefix("IMPORTED ")))


@pytest.mark.parametrize("args", [["--help"], ["--version"], []], ids=["help", "version", "alone"])
def test_help_and_version_import_no_heavy_library(args: list[str]) -> None:
    assert imported_by(*args) == {"code": 0, "heavy": []}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_command_help_imports_no_heavy_library(command: str) -> None:
    """A command's module imports its options' configs; its stage is imported when it runs."""
    assert imported_by(command, "--help") == {"code": 0, "heavy": []}


def test_the_heavy_libraries_are_really_there_to_be_imported(tmp_path: Path) -> None:
    """The probe can fail: running a command that needs them does import them."""
    result = imported_by("check-kernel", str(tmp_path / "missing.cpp"))
    assert result["code"] == 2 and "clang" in result["heavy"]


def test_the_dedup_default_shard_size_is_the_sources_one() -> None:
    """`dedup --help` shows the shard size without importing curate.sources (pyarrow)."""
    from curate.commands.dedup import SHARD_ROWS
    from curate.sources import SHARD_ROWS as SOURCES_SHARD_ROWS

    assert SHARD_ROWS == SOURCES_SHARD_ROWS


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_registered_command_loads_under_its_name_with_its_summary(name: str) -> None:
    sub = typer.Typer()
    importlib.import_module(COMMANDS[name].module).register(sub)
    [info] = sub.registered_commands
    assert info.name == name
    doc = " ".join((info.callback.__doc__ or "").split()) if info.callback else ""
    assert doc.startswith(COMMANDS[name].summary.removesuffix(".")), doc
