"""The stage contract's second step: a stage's run hands back its outputs and `Stage.execute`
writes the declared tables and reports and records the typed run; an undeclared table is refused
before anything is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from curate.stage import Outputs, Stage, TableRows
from curate.workspace import Workspace
from schemas import Decision, read_records
from schemas.runs import IngestRun


def _decision(unit_id: str) -> Decision:
    return Decision(unit_id=unit_id, decision="keep")


def test_execute_writes_the_outputs_a_run_returns_and_records_its_run(tmp_path: Path) -> None:
    def run(ws: Workspace, config: None) -> Outputs[str]:
        rows = TableRows("decisions", Decision, [_decision("b"), _decision("a")])
        return Outputs("done", [rows], {"x.json": {"n": 2}}, IngestRun(config={}, source="s", rows=2))

    ws = Workspace(tmp_path / "ws")
    out = Stage("writer", run, writes=("decisions",)).execute(ws, None)
    assert out.summary == "done"
    assert out.written["decisions"] == ws.decisions
    assert {d.unit_id for d in read_records(ws.decisions, Decision)} == {"a", "b"}
    assert json.loads(out.written["x.json"].read_text()) == {"n": 2}
    runs = ws.runs()
    assert len(runs) == 1 and isinstance(runs[0], IngestRun) and runs[0].rows == 2


def test_outputs_for_an_undeclared_table_are_refused_and_nothing_is_recorded(tmp_path: Path) -> None:
    def run(ws: Workspace, config: None) -> Outputs[str]:
        return Outputs("x", [TableRows("decisions", Decision, [])], {}, IngestRun(config={}))

    ws = Workspace(tmp_path / "ws")
    with pytest.raises(RuntimeError, match="does not name"):
        Stage("sneaky", run, writes=("units",)).execute(ws, None)
    assert not ws.decisions.exists()
    assert ws.runs() == []
