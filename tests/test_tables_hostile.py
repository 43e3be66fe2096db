"""Broken workspace tables through the commands a user runs: every table is checked against its
schema when read, and a broken one is one line naming the file and the column, exit 2, with
nothing written. A broken meta.json stops a stage before it touches anything; a workspace the
command cannot write is one line too."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from tests.conftest import REPO_ROOT, run_curate
from tests.test_publish_workspace import make_workspace


def _digest(root: Path) -> dict[str, str]:
    """Every file of the workspace with the hash of its bytes (what 'nothing written' compares)."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


def _one_line_error(done: subprocess.CompletedProcess[str], *needles: str) -> str:
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def _rewrite_units(ws: Path, change) -> None:  # type: ignore[no-untyped-def]
    table = pq.read_table(ws / "units.parquet")
    pq.write_table(change(table), ws / "units.parquet")


def test_dedup_refuses_units_without_their_code_column(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws").root
    _rewrite_units(ws, lambda t: t.drop_columns(["code"]))
    before = _digest(ws)
    done = run_curate("dedup", "-w", str(ws))
    _one_line_error(done, "units.parquet", "'code'", "missing")
    assert _digest(ws) == before


def test_annotate_refuses_units_without_their_code_column_before_touching_anything(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws").root
    _rewrite_units(ws, lambda t: t.drop_columns(["code"]))
    before = _digest(ws)
    done = run_curate("annotate", "-w", str(ws), "--base-url", "http://127.0.0.1:9/v1", "--model", "m")
    _one_line_error(done, "units.parquet", "'code'")
    assert _digest(ws) == before


def test_a_missing_key_column_is_named(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws").root
    _rewrite_units(ws, lambda t: t.drop_columns(["unit_id"]))
    before = _digest(ws)
    _one_line_error(run_curate("build", "-w", str(ws)), "units.parquet", "'unit_id'")
    assert _digest(ws) == before


def test_a_null_key_is_named(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws").root

    def null_first_id(t: pa.Table) -> pa.Table:
        ids = t.column("unit_id").to_pylist()
        ids[0] = None
        return t.set_column(t.column_names.index("unit_id"), "unit_id", pa.array(ids, pa.string()))

    _rewrite_units(ws, null_first_id)
    _one_line_error(run_curate("dedup", "-w", str(ws)), "units.parquet", "'unit_id'", "null")


def test_a_column_of_the_wrong_type_is_named(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws").root

    def level_as_text(t: pa.Table) -> pa.Table:
        index = t.column_names.index("level")
        return t.set_column(index, "level", pa.array([f"level {v}" for v in t.column("level").to_pylist()]))

    _rewrite_units(ws, level_as_text)
    before = _digest(ws)
    _one_line_error(run_curate("dedup", "-w", str(ws)), "units.parquet", "'level'", "int64")
    assert _digest(ws) == before


@pytest.mark.parametrize("damage", ["truncated", "garbage"])
def test_a_damaged_parquet_file_is_one_line(tmp_path: Path, damage: str) -> None:
    ws = make_workspace(tmp_path / "ws").root
    path = ws / "annotations.parquet"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2] if damage == "truncated" else os.urandom(len(data)))
    before = _digest(ws)
    _one_line_error(run_curate("build", "-w", str(ws)), "annotations.parquet", "not a readable parquet")
    assert _digest(ws) == before


def test_a_garbage_meta_json_stops_annotate_before_the_journal_is_touched(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws").root
    with sqlite3.connect(ws / "annotate.sqlite") as db:
        db.execute("create table marker (x integer)")
    (ws / "meta.json").write_text("{ this is not json")
    before = _digest(ws)
    done = run_curate("annotate", "-w", str(ws), "--base-url", "http://127.0.0.1:9/v1", "--model", "m")
    _one_line_error(done, "meta.json")
    assert _digest(ws) == before


def test_a_meta_json_that_is_not_an_object_is_one_line(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws").root
    (ws / "meta.json").write_text('["runs"]\n')
    before = _digest(ws)
    _one_line_error(run_curate("dedup", "-w", str(ws)), "meta.json")
    assert _digest(ws) == before


def _without_write_permission_override() -> list[str]:
    """A prefix that runs a command without root's power to write anywhere (root ignores mode bits)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root without setpriv: cannot take away root's write override")
    caps = "-dac_override,-dac_read_search"
    return [setpriv, f"--inh-caps={caps}", f"--bounding-set={caps}", "--"]


def test_a_read_only_workspace_is_one_line(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws").root
    before = _digest(ws)
    ws.chmod(0o555)
    try:
        done = subprocess.run(
            [
                *_without_write_permission_override(),
                sys.executable,
                "-m",
                "curate.cli",
                "dedup",
                "-w",
                str(ws),
            ],
            cwd=REPO_ROOT,
            env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
    finally:
        ws.chmod(0o755)
    _one_line_error(done, "cannot write", str(ws))
    assert _digest(ws) == before
