"""`curate build`: what is published (never a leak, only accepted annotations by default), the
operator split, the preference pairs and the provenance columns."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from curate.errors import UserError
from curate.publish import BuildConfig
from curate.publish.formats import config_tables
from curate.publish.split import TRAIN, VALIDATION, operator_key
from curate.stages.build import build_dataset, run_build
from schemas import Annotation, DatasetRow, Decision, KernelUnit, read_records, stable_id, write_records
from schemas.config import ConfigError
from tests.test_publish_workspace import (
    COMMIT,
    DEFAULT_SPECS,
    ORIGIN,
    TEACHER,
    VERIFIERS,
    Spec,
    make_workspace,
    unit_for,
)


def _ids(specs: list[Spec], **match: str) -> set[str]:
    return {unit_for(s).unit_id for s in specs if all(getattr(s, k) == v for k, v in match.items())}


def test_leak_and_duplicate_units_are_never_published(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    removed = _ids(DEFAULT_SPECS, decision="leak") | _ids(DEFAULT_SPECS, decision="duplicate")
    assert len(removed) == 2
    for include_rejected in (False, True):
        result = build_dataset(ws, BuildConfig(include_rejected=include_rejected))
        assert not removed & {r.id for r in result.rows}
        assert not removed & {p.unit_id for p in result.pairs}
    assert result.summary["decisions"] == {"duplicate": 1, "keep": 14, "leak": 1}
    assert result.summary["leaks_by_benchmark"] == {"npukernelbench": 1}


def test_a_leak_stays_out_even_when_its_annotation_was_accepted(tmp_path: Path) -> None:
    specs = [
        Spec("AddCustom", "add_custom", "ops/add/add.cpp"),
        Spec("Softmax", "softmax", "ops/sm/sm.cpp", decision="leak"),
    ]
    result = build_dataset(make_workspace(tmp_path / "ws", specs), BuildConfig(include_rejected=True))
    assert [r.op_name for r in result.rows] == ["AddCustom"]


def test_only_accepted_annotations_by_default_and_rejected_ones_in_their_own_config(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    default = build_dataset(ws, BuildConfig())
    assert {r.verdict for r in default.rows} == {"accepted"}
    assert {r.id for r in default.rows} == _ids(DEFAULT_SPECS, decision="keep", verdict="accepted")

    with_rejected = build_dataset(ws, BuildConfig(include_rejected=True))
    rejected = [r for r in with_rejected.rows if r.verdict == "rejected"]
    assert [r.op_name for r in rejected] == ["MaxCustom"]
    configs = config_tables(with_rejected.rows, with_rejected.pairs, ["raw"])
    raw_ids = {i for t in configs["raw"].values() for i in t.column("id").to_pylist()}
    rejected_ids = {i for t in configs["rejected"].values() for i in t.column("id").to_pylist()}
    assert rejected_ids == {rejected[0].id} and rejected_ids.isdisjoint(raw_ids)
    assert "rejected" not in config_tables(default.rows, default.pairs, ["raw"])
    # failed, pending and never-annotated units are not published in either mode
    never = (
        _ids(DEFAULT_SPECS, verdict="failed")
        | _ids(DEFAULT_SPECS, verdict="pending")
        | _ids(DEFAULT_SPECS, verdict="none")
    )
    assert not never & {r.id for r in with_rejected.rows}


def test_units_without_a_dedup_decision_are_left_out_and_counted(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    late = unit_for(Spec("Abs", "abs_custom", "operators/abs/op_kernel/abs.cpp", api="Abs"))
    units = read_records(ws.units, KernelUnit)
    write_records(ws.units, KernelUnit, [*units, late])
    annotations = read_records(ws.annotations, Annotation)
    accepted = next(a for a in annotations if a.verdict == "accepted")
    write_records(
        ws.annotations,
        Annotation,
        [*annotations, Annotation(**{**_fields(accepted), "unit_id": late.unit_id})],
    )
    result = build_dataset(ws, BuildConfig())
    assert late.unit_id not in {r.id for r in result.rows}
    assert result.summary["decisions"]["undecided"] == 1


def _fields(record: object) -> dict[str, object]:
    return {name: getattr(record, name) for name in record.__slots__}  # type: ignore[attr-defined]


def _many_operators(n_ops: int) -> list[Spec]:
    """Several kernels per operator, named the ways real repositories name them."""
    specs = []
    for i in range(n_ops):
        base = f"Op{i:03d}Fused"
        for kernel, op in (
            (f"op{i}_custom", f"{base}Custom"),
            (f"op{i}_v2", f"{base}V2"),
            (f"op{i}_arch35", base),
        ):
            specs.append(Spec(op, kernel, f"operators/op{i}/op_kernel/{kernel}.cpp"))
    return specs


def test_split_keeps_every_operator_on_one_side_and_is_deterministic(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws", _many_operators(60))
    config = BuildConfig(validation_ratio=0.25)
    rows = build_dataset(ws, config).rows
    assert len(rows) == 180
    sides: dict[str, set[str]] = {}
    for row in rows:
        sides.setdefault(operator_key(row.op_name, row.kernel_name), set()).add(row.split)
    assert len(sides) == 60  # AddCustom, AddV2 and Add are one operator
    assert all(len(s) == 1 for s in sides.values()), "an operator is on both sides of the split"
    validation = sum(s == {VALIDATION} for s in sides.values())
    assert 5 <= validation <= 25  # 25% of 60 operators, with hash noise
    again = build_dataset(ws, config).rows
    assert [(r.id, r.split) for r in again] == [(r.id, r.split) for r in rows]
    resalted = build_dataset(ws, BuildConfig(validation_ratio=0.25, split_salt="other")).rows
    assert [r.split for r in resalted] != [r.split for r in rows]
    assert {r.split for r in build_dataset(ws, BuildConfig(validation_ratio=0.0)).rows} == {TRAIN}


def test_operator_key_groups_the_usual_name_variants() -> None:
    assert operator_key("AddCustom") == operator_key("add_custom") == operator_key("AddV2") == "add"
    assert operator_key("LayerNormV4Custom") == "layernorm"
    assert operator_key("Conv2d") != operator_key("Conv3d")
    assert operator_key("", "softmax_kernel") == "softmax"
    assert operator_key("", "", "unit123") == "unit123"


def test_preference_pairs_join_an_accepted_and_a_rejected_attempt_of_the_same_unit(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    result = build_dataset(ws, BuildConfig())
    rows = {r.id: r for r in result.rows}
    assert len(result.pairs) == 3  # AddCustom had one rejected round, MulCustom two
    for pair in result.pairs:
        row = rows[pair.unit_id]
        assert pair.chosen == row.reasoning and pair.rejected != pair.chosen
        assert pair.rejected_round < pair.chosen_round == row.rounds
        assert pair.rejected_checks == ["grounding.api_exists"]
        assert pair.instruction == row.instruction and pair.split == row.split
    assert len({p.id for p in result.pairs}) == 3
    # the unit whose final verdict was rejected gives no pair, and no attempts table means no pairs
    assert not _ids(DEFAULT_SPECS, verdict="rejected") & {p.unit_id for p in result.pairs}
    bare = make_workspace(tmp_path / "bare", with_attempts=False)
    assert build_dataset(bare, BuildConfig()).pairs == []


def test_rows_carry_provenance_generation_and_verification_columns(tmp_path: Path) -> None:
    rows = build_dataset(make_workspace(tmp_path / "ws"), BuildConfig()).rows
    add = next(r for r in rows if r.kernel_name == "add_custom")
    assert (add.source, add.origin_url, add.commit) == ("ascend-ops", ORIGIN, COMMIT)
    assert add.path == "operators/add_custom/op_kernel/add_custom.cpp" and add.license == "CANN-2.0"
    assert add.teacher_model == TEACHER and add.rounds == 2 and add.prompt_tokens > 0
    assert set(VERIFIERS) <= set(add.verifier) and "grounding.numbers" in add.verifier
    # the answer is the kernel without its licence header; the licence is the `license` column
    assert add.answer.startswith("#include") and "Copyright" not in add.answer and "License" not in add.answer
    assert 'extern "C" __global__ __aicore__ void add_custom' in add.answer
    assert add.id == stable_id("ascend-ops", add.path, "add_custom")


def test_build_needs_dedup_and_annotate_first(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    ws.decisions.unlink()
    with pytest.raises(UserError, match="curate dedup"):
        build_dataset(ws, BuildConfig())
    with pytest.raises(ConfigError, match="validation_ratio"):
        BuildConfig(validation_ratio=1.5)


def test_build_writes_its_tables_and_records_the_run(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    result = run_build(ws, BuildConfig(include_rejected=True))
    assert read_records(ws.root / "dataset.parquet", DatasetRow) == result.rows
    assert (ws.reports / "build.json").is_file()
    run = ws.meta()["runs"][-1]
    assert (
        run["stage"] == "build"
        and run["config"]["include_rejected"] is True
        and run["rows"] == len(result.rows)
    )
    assert read_records(ws.decisions, Decision)  # inputs untouched


def test_build_command_prints_a_summary_and_bad_input_is_one_line(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    cli = [sys.executable, "-m", "curate.cli", "build", "--workspace", str(ws.root)]
    done = subprocess.run(cli, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "build: 10 rows" in done.stdout and "1 leaks" in done.stdout
    bad = subprocess.run([*cli, "--validation-ratio", "2"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
    assert bad.stderr.strip().count("\n") == 0 and "Traceback" not in bad.stderr


def test_checks_that_ran_are_read_from_the_verify_or_annotate_run() -> None:
    from curate.publish.build import checks_of_runs
    from schemas.runs import run_from_json

    def checks(entries: list[dict[str, object]]) -> list[str]:
        return checks_of_runs([r for e in entries if (r := run_from_json(e)) is not None])

    # Older meta.json shapes (a comma-joined string, a list of objects) are read into typed runs.
    as_annotate_records: list[dict[str, object]] = [
        {"stage": "annotate", "verifiers": "api_surface, grounding"}
    ]
    assert checks(as_annotate_records) == ["api_surface", "grounding"]
    later_verify = [*as_annotate_records, {"stage": "verify", "verifiers": [{"name": "cann"}]}]
    assert checks(later_verify) == ["cann"]
    assert checks([{"stage": "ingest"}]) == []
