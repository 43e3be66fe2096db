"""The subset flags of `annotate`, `verify` and `build` (curate/selection.py) as a user runs them:
each flag narrows the units, through the loopback teacher server that counts what it is asked;
the journal still spares a unit annotated in a subset run from a later full run; every mistake
(a bad `--where`, unknown ids, names or an empty selection) is one line and exit 2."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from curate.cli import app
from curate.publish.card import CardInputs, render_card
from schemas import Annotation, DatasetRow, Decision, read_records, write_records
from schemas.records import KernelUnit
from tests.servers.openai_server import OpenAIServer
from tests.test_annotate_cli import curate
from tests.test_annotate_task import make_unit

# Six units: sources a (0-2) and b (3-5); categories math (even) and reduction (odd); sizes grow.
SOURCES = {i: "a" if i < 3 else "b" for i in range(6)}


def units() -> list[KernelUnit]:
    return [
        make_unit(i, source=SOURCES[i], category="math" if i % 2 == 0 else "reduction", loc=100 * (i + 1))
        for i in range(6)
    ]


@pytest.fixture
def server() -> Any:
    with OpenAIServer() as srv:
        yield srv


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    write_records(root / "units.parquet", KernelUnit, units())
    write_records(root / "decisions.parquet", Decision, [Decision(f"unit{i:04d}", "keep") for i in range(6)])
    return root


def asked(server: OpenAIServer) -> list[int]:
    """The units the teacher was asked about (the op name in the prompt), format probes left out."""
    found = []
    for request in server.chat_requests():
        match = re.search(r"AddCustom(\d+)", json.dumps(request.messages))
        if match:
            found.append(int(match.group(1)))
    return sorted(found)


def annotate(ws: Path, server: OpenAIServer, *args: str) -> Any:
    result = CliRunner().invoke(app, ["annotate", "-w", str(ws), "--base-url", server.url, "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output.strip().splitlines()[-1])


def annotated(ws: Path) -> dict[str, str]:
    return {a.unit_id: a.verdict for a in read_records(ws / "annotations.parquet", Annotation)}


def test_a_source_subset_is_annotated_and_a_full_run_does_not_ask_it_again(
    ws: Path, server: OpenAIServer
) -> None:
    summary = annotate(ws, server, "--source", "a")
    assert asked(server) == [0, 1, 2] and summary["units"] == 3
    assert set(annotated(ws)) == {"unit0000", "unit0001", "unit0002"}

    summary = annotate(ws, server)  # the full run: the journal answers for the units of a
    assert asked(server) == [0, 1, 2, 3, 4, 5]  # each unit asked exactly once over both runs
    assert summary["cached"] == 3 and summary["units"] == 6
    assert set(annotated(ws)) == {f"unit{i:04d}" for i in range(6)}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--category", "reduction"], [1, 3, 5]),
        (["--source", "b", "--category", "math"], [4]),  # the flags combine with AND
        (["--category", "math,reduction", "--source", "a"], [0, 1, 2]),  # comma-separated names
        (["--where", "loc >= 400 AND source = 'b'"], [3, 4, 5]),
        (["--where", "kernel_name LIKE 'add%' AND loc < 250"], [0, 1]),
    ],
)
def test_each_flag_narrows_the_units_asked(
    ws: Path, server: OpenAIServer, args: list[str], expected: list[int]
) -> None:
    annotate(ws, server, *args)
    assert asked(server) == expected


def test_units_file_selects_listed_ids(ws: Path, server: OpenAIServer, tmp_path: Path) -> None:
    listed = tmp_path / "ids.txt"
    listed.write_text("# the ones to redo\nunit0004\n\nunit0001  # slow one\n")
    annotate(ws, server, "--units", str(listed))
    assert asked(server) == [1, 4]


def test_only_failed_asks_the_failed_and_rejected_units_only(ws: Path, server: OpenAIServer) -> None:
    annotate(ws, server, "--source", "a")
    # Yesterday's verdicts: unit 1 failed, unit 2 was rejected (as the journal's export says them).
    rows = read_records(ws / "annotations.parquet", Annotation)
    verdicts = {"unit0001": "failed", "unit0002": "rejected"}
    write_records(
        ws / "annotations.parquet",
        Annotation,
        [dataclasses.replace(a, verdict=verdicts.get(a.unit_id, a.verdict)) for a in rows],
    )
    selected = CliRunner().invoke(
        app, ["annotate", "-w", str(ws), "--base-url", server.url, "--json", "--only-failed"]
    )
    assert selected.exit_code == 0, selected.output
    assert json.loads(selected.output.strip().splitlines()[-1])["units"] == 2  # units 1 and 2, not 0


def test_verify_rejudges_only_the_selection(ws: Path, server: OpenAIServer) -> None:
    annotate(ws, server)
    rows = read_records(ws / "annotations.parquet", Annotation)
    # Mark every stored verdict rejected: a re-judged unit comes back accepted, a skipped one does not.
    write_records(
        ws / "annotations.parquet", Annotation, [dataclasses.replace(a, verdict="rejected") for a in rows]
    )
    result = CliRunner().invoke(app, ["verify", "-w", str(ws), "--json", "--source", "b"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["annotations"] == 3
    verdicts = annotated(ws)
    assert {u for u, v in verdicts.items() if v == "accepted"} == {"unit0003", "unit0004", "unit0005"}
    assert {u for u, v in verdicts.items() if v == "rejected"} == {"unit0000", "unit0001", "unit0002"}
    assert [a.unit_id for a in read_records(ws / "annotations.parquet", Annotation)] == [
        a.unit_id for a in rows
    ]


def test_build_publishes_only_the_selection(ws: Path, server: OpenAIServer) -> None:
    annotate(ws, server)
    result = CliRunner().invoke(app, ["build", "-w", str(ws), "--where", "loc <= 300"])
    assert result.exit_code == 0, result.output
    assert "(only the units of --where 'loc <= 300')" in result.output
    assert sorted(r.id for r in read_records(ws / "dataset.parquet", DatasetRow)) == [
        "unit0000",
        "unit0001",
        "unit0002",
    ]
    report = json.loads((ws / "reports" / "build.json").read_text(encoding="utf-8"))
    assert report["selection"] == "--where 'loc <= 300'"
    runs = json.loads((ws / "meta.json").read_text(encoding="utf-8"))["runs"]
    assert [r["selection"] for r in runs if r["stage"] == "build"] == ["--where 'loc <= 300'"]
    card = render_card(
        CardInputs("t", "", {"sft": {"train": 3}}, {"sft": {"train": "sft/*.parquet"}}, [], report, {}, [])
    )
    assert "Built from part of the workspace only: the units selected by `--where 'loc <= 300'`" in card


@pytest.mark.parametrize(
    ("command", "args", "says"),
    [
        ("annotate", ["--where", "loc <"], "--where 'loc <' is not a usable expression"),
        ("annotate", ["--where", "no_such_column > 3"], "no_such_column"),
        ("annotate", ["--where", "__import__('os').system('touch pwned')"], "is not a usable expression"),
        ("verify", ["--where", "loc + 1"], "is not a usable expression"),
        ("build", ["--where", "CAST(source AS INT) > 1"], "failed on units.parquet: conversion from"),
        ("annotate", ["--source", "c"], "--source 'c' matches no unit; units.parquet has: a, b"),
        ("build", ["--category", "maths"], "--category 'maths' matches no unit"),
        ("annotate", ["--where", "loc > 100000"], "matches none of the 6 units"),
        ("build", ["--source", "a", "--where", "source = 'b'"], "matches none of the 6 units"),
        ("annotate", ["--units", "IDS"], "2 of its 3 ids are not in units.parquet (first: unit9999)"),
        ("annotate", ["--units", "MISSING"], "cannot read it"),
        ("annotate", ["--only-failed"], "no annotate run to take failures from"),
        ("annotate", ["--export-only", "--source", "a"], "does not apply to --export-only"),
    ],
)
def test_a_bad_selection_is_one_line_and_exit_2_before_the_teacher_is_asked(
    ws: Path, server: OpenAIServer, tmp_path: Path, command: str, args: list[str], says: str
) -> None:
    ids = tmp_path / "ids.txt"
    ids.write_text("unit0001\nunit9999\nunit8888\n")
    args = [str(ids) if a == "IDS" else str(tmp_path / "missing.txt") if a == "MISSING" else a for a in args]
    if command in ("verify", "build"):  # their other inputs exist: only the selection is wrong
        write_records(ws / "annotations.parquet", Annotation, [])
    extra = ["--base-url", server.url] if command == "annotate" else []
    done = curate(command, "-w", str(ws), *extra, *args, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], done.stderr
    assert "Traceback" not in done.stderr
    assert server.chat_count() == 0 and not (tmp_path / "pwned").exists()
    assert not (ws / "dataset.parquet").exists()
