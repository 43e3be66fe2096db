"""Incremental ingest: a re-ingest parses only the entry files whose inputs changed (real libclang
parses, a real SQLite cache in the workspace), and its units are the ones a full parse gives."""

from __future__ import annotations

from pathlib import Path

import pytest

import parsers.cache
from curate.stages.ingest import IngestRequest, run_ingest
from curate.workspace import Workspace
from parsers.config import IngestConfig
from parsers.units import SourceInfo
from schemas import KernelUnit, read_records
from schemas.runs import IngestRun

KERNEL = """\
#include "kernel_operator.h"
#include "{header}"
extern "C" __global__ __aicore__ void {name}(GM_ADDR x, GM_ADDR y) {{
    AscendC::TPipe pipe;
    {call}
}}
"""

REPO = {
    "common/util.h": "#pragma once\ninline __aicore__ void Helper() { AscendC::PipeBarrier<PIPE_ALL>(); }\n",
    "add/op_kernel/add.cpp": KERNEL.format(header="../../common/util.h", name="add", call="Helper();"),
    "add/README.md": "# Add\n\nAdds two tensors element by element.\n",
    "mul/op_kernel/mul_util.h": "#pragma once\ninline __aicore__ void MulStep() {}\n",
    "mul/op_kernel/mul.cpp": KERNEL.format(header="mul_util.h", name="mul", call="MulStep();"),
    "sub/op_kernel/sub.cpp": KERNEL.format(header="../../common/util.h", name="sub", call="Helper();"),
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for rel, text in REPO.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def ingest(ws: Workspace, root: Path) -> IngestRun:
    run_ingest(ws, IngestRequest(str(root), "r"), IngestConfig(jobs=1))
    run = ws.runs()[-1]
    assert isinstance(run, IngestRun)
    return run


def units(ws: Workspace) -> dict[str, KernelUnit]:
    return {u.kernel_name: u for u in read_records(ws.units, KernelUnit)}


def test_unchanged_repository_is_not_parsed_again_and_gives_the_same_units(repo: Path, tmp_path: Path):
    ws = Workspace(tmp_path / "ws")
    first = ingest(ws, repo)
    assert (first.parsed, first.reused) == (3, 0)
    before = units(ws)
    second = ingest(ws, repo)
    assert (second.parsed, second.reused) == (0, 3)
    assert units(ws) == before
    assert ws.parse_cache.is_file()


def test_a_changed_header_reparses_exactly_the_files_that_include_it(repo: Path, tmp_path: Path):
    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    (repo / "common/util.h").write_text(
        "#pragma once\ninline __aicore__ void Helper() { AscendC::DataCopy(a, b, 8); }\n"
    )
    run = ingest(ws, repo)
    assert (run.parsed, run.reused) == (2, 1)  # add and sub include util.h; mul does not
    got = units(ws)
    assert "DataCopy" in got["add"].code and "DataCopy" in got["sub"].code
    assert "DataCopy" in got["add"].apis


def test_a_changed_entry_file_or_document_reparses_that_entry_alone(repo: Path, tmp_path: Path):
    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    (repo / "mul/op_kernel/mul.cpp").write_text(
        REPO["mul/op_kernel/mul.cpp"].replace("MulStep();", "MulStep(); MulStep();")
    )
    assert (ingest(ws, repo).parsed, ingest(ws, repo).parsed) == (1, 0)
    (repo / "add/README.md").write_text("# Add\n\nAdds two tensors, now with broadcasting.\n")
    run = ingest(ws, repo)
    assert (run.parsed, run.reused) == (1, 2)
    assert "MulStep(); MulStep();" in units(ws)["mul"].code


def test_a_new_parser_version_or_a_new_file_reparses_everything(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    (repo / "div.cpp").write_text("int unrelated() { return 0; }\n")  # the file list is in the key
    assert ingest(ws, repo).parsed == 3
    monkeypatch.setattr(parsers.cache, "parser_version", lambda: "another parser")
    assert ingest(ws, repo).parsed == 3


def test_a_broken_cache_entry_is_a_miss_not_a_failure(repo: Path, tmp_path: Path):
    import sqlite3

    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    with sqlite3.connect(ws.parse_cache) as db:
        db.execute("UPDATE outcomes SET outcome = x'00'")
    run = ingest(ws, repo)
    assert (run.parsed, run.reused) == (3, 0)
    assert set(units(ws)) == {"add", "mul", "sub"}


def _curate_with_stderr_on_a_terminal(*args: str) -> tuple[int, str]:
    """Run `curate ARGS` with stderr on a pseudo-terminal (stdout a pipe); (exit code, stderr)."""
    import os
    import pty
    import subprocess
    import sys

    from tests.conftest import REPO_ROOT

    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), "COLUMNS": "120", "TERM": "xterm"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "curate.cli", *args], stdout=subprocess.PIPE, stderr=follower, env=env
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 4096)
        except OSError:  # the terminal closed with the process
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=300)
    os.close(leader)
    return proc.returncode, b"".join(chunks).decode("utf-8", "replace")


def test_ingest_shows_progress_on_a_terminal_and_nothing_on_a_pipe(repo: Path, tmp_path: Path):
    from tests.conftest import run_curate

    code, err = _curate_with_stderr_on_a_terminal(
        "ingest", str(repo), "-w", str(tmp_path / "a"), "--jobs", "1"
    )
    assert code == 0, err
    assert "parsing" in err and "3/3" in err and "3 units" in err  # files parsed / total, units
    done = run_curate("ingest", str(repo), "-w", str(tmp_path / "b"), "--jobs", "1")
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_an_edit_that_keeps_the_size_is_seen_and_unchanged_files_are_not_read_again(
    repo: Path, tmp_path: Path
):
    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    assert (ws.parse_cache.parent / "files.sqlite").is_file()  # stats and digests of the files read
    header = repo / "mul/op_kernel/mul_util.h"
    header.write_text(header.read_text().replace("MulStep", "MulStop"))  # same size, new content
    run = ingest(ws, repo)
    assert (run.parsed, run.reused) == (1, 2)
    assert "MulStop" in units(ws)["mul"].code


def test_an_unchanged_tree_takes_the_last_scan_and_an_edit_that_adds_an_entry_is_found(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    import parsers.scan

    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    real_scan = parsers.scan._scan

    def no_scan(*args: object) -> object:
        raise AssertionError("an unchanged tree was scanned again")

    monkeypatch.setattr(parsers.scan, "_scan", no_scan)
    assert ingest(ws, repo).reused == 3  # every file's stat as it was: the kept scan
    monkeypatch.setattr(parsers.scan, "_scan", real_scan)
    (repo / "common/util.h").write_text(
        REPO["common/util.h"] + 'extern "C" __global__ __aicore__ void shared_entry(GM_ADDR x) {}\n'
    )
    ingest(ws, repo)
    assert "shared_entry" in units(ws)  # the edited header's entry is seen, through its includer


def test_an_unchanged_reingest_keeps_the_units_table_and_any_other_write_makes_it_write_again(
    repo: Path, tmp_path: Path
):
    import shutil

    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    before, rows = ws.units.stat(), units(ws)
    run = ingest(ws, repo)
    assert run.reused == 3 and ws.units.stat().st_mtime_ns == before.st_mtime_ns  # not rewritten
    assert ws.units.stat().st_ino == before.st_ino and units(ws) == rows
    ws.units.unlink()  # the table gone: the rows are written again
    ingest(ws, repo)
    assert set(units(ws)) == {"add", "mul", "sub"}
    other = tmp_path / "other"
    shutil.copytree(repo, other)
    run_ingest(ws, IngestRequest(str(other), "o"), IngestConfig(jobs=1))  # another source's rows
    ingest(ws, repo)
    assert sorted(u.source for u in read_records(ws.units, KernelUnit)) == ["o"] * 3 + ["r"] * 3


def test_a_dependency_replaced_by_a_fifo_or_an_outside_link_is_refused_not_read(repo: Path, tmp_path: Path):
    """The re-ingest's check of what a stored parse read goes through the same guard as every
    read: a FIFO (opening it would block the command) and a link out of the repository are
    absent, never opened."""
    import os
    import threading

    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    fifo = repo / "add/README.md"  # a document the add entry read
    fifo.unlink()
    os.mkfifo(fifo)
    outside = tmp_path / "LICENSE"
    outside.write_text("MIT License\n\nPermission is hereby granted, free of charge, to any person\n")
    (repo / "mul/LICENSE").symlink_to(outside)  # where mul's parse looked for a licence, in vain
    runs: list[IngestRun] = []
    worker = threading.Thread(target=lambda: runs.append(ingest(ws, repo)), daemon=True)
    worker.start()
    worker.join(60)
    if worker.is_alive():  # unblock the reader before failing
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert runs, "the re-ingest blocked on a FIFO"
    assert runs[0].reused >= 1  # sub read neither
    got = units(ws)
    assert got["add"].doc is None and "MIT" not in got["mul"].license  # the FIFO and the link: absent


def test_a_licence_file_added_where_a_parse_looked_in_vain_reparses_that_entry(repo: Path, tmp_path: Path):
    """The probes for licence files that found nothing are checked against their folder's names:
    a licence file that appears (not a source file: the file list, and the key, stay the same)
    reparses the entries whose probes named it, and only those."""
    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    assert units(ws)["mul"].license == "unknown"
    (repo / "mul/LICENSE").write_text(
        "MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\n"
    )
    run = ingest(ws, repo)
    assert (run.parsed, run.reused) == (1, 2)
    got = units(ws)
    assert got["mul"].license == "MIT" and got["add"].license == "unknown"


def test_the_collector_is_paused_during_an_ingest_and_restored_after(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    import gc

    import parsers.ingest

    seen: list[bool] = []
    real = parsers.ingest.scan_repository

    def scan(*args: object, **kwargs: object) -> object:
        seen.append(gc.isenabled())
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(parsers.ingest, "scan_repository", scan)
    assert gc.isenabled()
    ingest(Workspace(tmp_path / "ws"), repo)
    assert seen == [False] and gc.isenabled()
    monkeypatch.setattr(parsers.ingest, "scan_repository", lambda *a, **k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        parsers.ingest.ingest_directory(repo, SourceInfo("r", "", "", ""), IngestConfig(jobs=1))
    assert gc.isenabled()


def _no_full_scan(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Make `_scan` (the scan of every file's facts) count its calls."""
    import parsers.scan

    calls: list[int] = []
    real = parsers.scan._scan

    def counted(*args: object) -> object:
        calls.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(parsers.scan, "_scan", counted)
    return calls


def test_an_edit_that_keeps_entries_and_includes_reads_that_file_alone_and_keeps_the_scan(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    calls = _no_full_scan(monkeypatch)
    mul = repo / "mul/op_kernel/mul.cpp"
    mul.write_text(
        REPO["mul/op_kernel/mul.cpp"].replace("MulStep();", "MulStep(); // twice?\n    MulStep();")
    )
    run = ingest(ws, repo)
    assert calls == [] and (run.parsed, run.reused) == (1, 2)  # the kept scan, one file parsed
    assert "// twice?" in units(ws)["mul"].code
    # an edit that includes another header changes what the scan says: scanned again, and the
    # header is part of the unit (and of what its stored parse depends on)
    mul.write_text(
        mul.read_text().replace(
            '#include "mul_util.h"', '#include "mul_util.h"\n#include "../../common/util.h"'
        )
    )
    run = ingest(ws, repo)
    assert calls == [1] and run.parsed == 1
    assert "common/util.h" in units(ws)["mul"].includes
    (repo / "common/util.h").write_text(REPO["common/util.h"].replace("PIPE_ALL", "PIPE_V"))
    assert ingest(ws, repo).parsed == 3  # now every entry reads util.h


def test_a_removed_or_a_new_file_scans_the_tree_again(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    calls = _no_full_scan(monkeypatch)
    (repo / "sub/op_kernel/sub.cpp").unlink()
    run = ingest(ws, repo)
    assert calls == [1] and set(units(ws)) == {"add", "mul"} and run.parsed == 2  # the file list changed
    (repo / "div/op_kernel").mkdir(parents=True)
    (repo / "div/op_kernel/div.cpp").write_text(
        KERNEL.format(header="../../common/util.h", name="div", call="Helper();")
    )
    ingest(ws, repo)
    assert calls == [1, 1] and set(units(ws)) == {"add", "mul", "div"}


def test_a_scan_kept_for_one_root_is_not_misled_by_a_nested_root_read_since(repo: Path, tmp_path: Path):
    """The file memo is keyed by absolute path: a source nested in another (the repository and
    one of its folders, ingested into one workspace) shares its rows. A file that an edit made
    an entry file, read first by the inner ingest, is still new to the outer root's kept scan."""
    helper = repo / "mul/op_kernel/helper.cpp"
    helper.write_text("int helper() { return 1; }\n")
    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    helper.write_text(
        helper.read_text() + 'extern "C" __global__ __aicore__ void helper_entry(GM_ADDR x) {}\n'
    )
    run_ingest(ws, IngestRequest(str(repo / "mul"), "inner"), IngestConfig(jobs=1))  # reads helper.cpp
    ingest(ws, repo)
    outer = {u.kernel_name for u in read_records(ws.units, KernelUnit) if u.source == "r"}
    assert outer == {"add", "mul", "sub", "helper_entry"}


def test_an_unchanged_reingest_imports_no_arrow(repo: Path, tmp_path: Path):
    """A re-ingest that keeps its table runs in a process that never imports pyarrow (0.3 s of
    a whole `curate ingest`); the first ingest, which writes the table, does."""
    from tests.test_cli_startup import imported_by

    ws = str(tmp_path / "ws")
    first = imported_by("ingest", str(repo), "-w", ws, "--jobs", "1")
    assert first["code"] == 0 and "pyarrow" in first["heavy"]  # the probe can fail
    again = imported_by("ingest", str(repo), "-w", ws, "--jobs", "1")
    assert again["code"] == 0 and "pyarrow" not in again["heavy"], again


def test_a_file_added_to_a_folder_a_parse_listed_reparses_that_entry(repo: Path, tmp_path: Path):
    """A parse lists its operator's folders (for documents): a document appearing in a folder
    that did not exist, or any file appearing in a listed one, reparses that entry alone."""
    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    assert units(ws)["mul"].doc is None
    (repo / "mul/docs").mkdir()
    (repo / "mul/docs/aclnnMul.md").write_text(
        "# aclnnMul\n\n## 功能说明\n\n- 算子功能：两个张量逐元素相乘。\n"
    )
    run = ingest(ws, repo)
    assert (run.parsed, run.reused) == (1, 2)
    doc = units(ws)["mul"].doc
    assert doc is not None and "相乘" in doc.function
    (repo / "sub/notes.txt").write_text("not a source file: the file list, and the key, stay the same\n")
    assert (ingest(ws, repo).parsed, ingest(ws, repo).parsed) == (1, 0)


def test_a_reingest_of_a_workspace_one_source_writes_its_rows_without_reading_them_back(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """Every row of a one-source workspace is replaced by its re-ingest: they are not read back
    as records first (the source column tells), and with a second source its rows are kept."""
    import shutil

    import schemas.tables

    ws = Workspace(tmp_path / "ws")
    ingest(ws, repo)
    reads: list[Path] = []
    real = schemas.tables.read_records

    def counted(path: Path, cls: type) -> object:
        reads.append(path)
        return real(path, cls)

    monkeypatch.setattr(schemas.tables, "read_records", counted)
    (repo / "mul/op_kernel/mul.cpp").write_text(
        REPO["mul/op_kernel/mul.cpp"].replace("MulStep();", "MulStep(); MulStep();")
    )
    ingest(ws, repo)
    assert reads == [] and "MulStep(); MulStep();" in units(ws)["mul"].code
    shutil.copytree(repo, tmp_path / "other")
    run_ingest(ws, IngestRequest(str(tmp_path / "other"), "o"), IngestConfig(jobs=1))
    assert reads == [ws.units]  # another source's rows: read, and kept
    (repo / "add/op_kernel/add.cpp").write_text(REPO["add/op_kernel/add.cpp"] + "// edited\n")
    ingest(ws, repo)
    got = read_records(ws.units, KernelUnit)
    assert sorted(u.source for u in got) == ["o"] * 3 + ["r"] * 3
    assert ["// edited" in u.code for u in got if u.kernel_name == "add"] == [False, True]
