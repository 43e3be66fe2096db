"""`curate verify` (re-judging stored annotations without the teacher) and `curate doctor`."""

from __future__ import annotations

import json
from pathlib import Path

from annotate.reasoning import VerifyConfig, default_verifiers
from annotate.reasoning.rerun import reverify
from annotate.tasks.kernel_reasoning import render_reasoning
from curate.workspace import Workspace
from schemas import Annotation, Attempt, Diagnostic, KernelUnit, read_records, write_records
from tests.conftest import run_curate
from tests.test_check_kernel_cli import invoke
from tests.test_verify_cann import fake_toolkit
from tests.test_verify_grounding import SECTIONS, unit
from tests.test_verify_loop import HALLUCINATED


def _annotation(unit_id: str, reasoning: str, verdict: str, diagnostics: list[Diagnostic]) -> Annotation:
    return Annotation(unit_id, "teacher", "v1", "instruction", reasoning, "code", verdict, 2, diagnostics)


def stored_workspace(root: Path) -> Workspace:
    """Tables as an older, laxer verifier left them: the hallucinated first round was accepted."""
    ws = Workspace(root)
    ws.create()
    write_records(ws.units, KernelUnit, [unit(), unit(index=1)])
    wrong, right = render_reasoning(HALLUCINATED), render_reasoning(SECTIONS)
    format_failure = Diagnostic("teacher.format", "error", "unparsable answer")
    write_records(
        ws.annotations,
        Annotation,
        [
            _annotation("unit0000", wrong, "accepted", [format_failure]),
            _annotation("unit0001", right, "accepted", []),
            _annotation("unit0002", "", "failed", [format_failure]),
        ],
    )
    write_records(
        ws.attempts,
        Attempt,
        [
            Attempt("unit0000", 1, wrong, "accepted"),
            Attempt("unit0001", 1, wrong, "accepted"),
            Attempt("unit0001", 2, right, "accepted"),
        ],
    )
    return ws


def test_reverify_rejudges_annotations_and_attempts(tmp_path: Path) -> None:
    ws = stored_workspace(tmp_path / "ws")
    units = {u.unit_id: u for u in read_records(ws.units, KernelUnit)}
    annotations, attempts, summary = reverify(
        units,
        read_records(ws.annotations, Annotation),
        read_records(ws.attempts, Attempt),
        default_verifiers(VerifyConfig(cann=False)),
    )
    assert [(a.unit_id, a.verdict) for a in annotations] == [
        ("unit0000", "rejected"),
        ("unit0001", "accepted"),
        ("unit0002", "failed"),  # never got a reasoning: left as it is
    ]
    assert [d.check for d in annotations[0].diagnostics] == ["teacher.format", "grounding.api_exists"]
    assert [d.check for d in annotations[1].diagnostics] == ["grounding.api_exists"]  # from round 1
    assert [(a.unit_id, a.round, a.verdict) for a in attempts] == [
        ("unit0000", 1, "rejected"),
        ("unit0001", 1, "rejected"),
        ("unit0001", 2, "accepted"),
    ]
    assert (summary.annotations, summary.accepted, summary.rejected, summary.changed) == (2, 1, 1, 1)
    assert (summary.attempts, summary.skipped, summary.unknown_units) == (3, 1, 0)


def test_verify_command_rewrites_the_tables(tmp_path: Path) -> None:
    ws = stored_workspace(tmp_path / "ws")
    result = run_curate("verify", "--workspace", str(ws.root), "--json", "--no-cann")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["verifiers"] == ["surface", "grounding"]
    assert (report["annotations"], report["accepted"], report["rejected"], report["changed"]) == (2, 1, 1, 1)
    verdicts = [a.verdict for a in read_records(ws.annotations, Annotation)]
    assert verdicts == ["rejected", "accepted", "failed"]
    assert [a.verdict for a in read_records(ws.attempts, Attempt)] == ["rejected", "rejected", "accepted"]
    [run] = [r for r in ws.meta()["runs"] if r["stage"] == "verify"]
    assert run["verifiers"] == ["surface", "grounding"] and run["summary"]["changed"] == 1

    human = invoke("verify", "-w", str(ws.root), "--no-cann")
    assert human.returncode == 0 and "1 accepted, 1 rejected, 0 changed verdict" in human.stdout


def test_verify_needs_units_and_annotations(tmp_path: Path) -> None:
    empty = invoke("verify", "--workspace", str(tmp_path / "none"))
    assert empty.returncode == 2 and "curate ingest" in empty.stderr
    ws = Workspace(tmp_path / "ws")
    ws.create()
    write_records(ws.units, KernelUnit, [unit()])
    unannotated = invoke("verify", "--workspace", str(ws.root))
    assert unannotated.returncode == 2 and "curate annotate" in unannotated.stderr
    bad_soc = invoke("verify", "--workspace", str(ws.root), "--soc", "Ascend123")
    assert bad_soc.returncode == 2 and "--soc" in bad_soc.stderr


def test_doctor_lists_every_verifier(tmp_path: Path) -> None:
    plain = run_curate("doctor", env={"ASCEND_HOME_PATH": ""})
    assert plain.returncode == 0, plain.stderr
    lines = plain.stdout.splitlines()
    assert lines[0].split()[:2] == ["surface", "available"]
    assert any(line.strip().startswith("libclang: clang version") for line in lines)
    assert any(
        line.startswith("cann") and "unavailable" in line and "ASCEND_HOME_PATH" in line for line in lines
    )
    assert any(line.split()[:2] == ["grounding", "available"] for line in lines)

    home = fake_toolkit(tmp_path)
    found = invoke("doctor", "--json", "--cann-home", str(home))
    assert found.returncode == 0
    records = {r["name"]: r for r in map(json.loads, found.stdout.splitlines())}
    assert set(records) == {"surface", "cann", "grounding"}
    assert records["cann"]["available"] and "bisheng" in records["cann"]["detail"]
    assert "grounding.api_exists" in records["grounding"]["facts"]["checks"]
    assert records["surface"]["facts"]["catalog"].endswith("entries")
