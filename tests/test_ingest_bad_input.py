"""Bad input: a clear one-line error or a counted skip, a non-zero exit when nothing could be
ingested, and never a half-written workspace."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from curate.workspace import Workspace
from parsers.config import IngestConfig
from parsers.files import read_source
from parsers.ingest import ingest_directory
from parsers.units import SourceInfo
from tests.conftest import run_curate

KERNEL = 'extern "C" __global__ __aicore__ void k(GM_ADDR x) { AscendC::Abs(x, x, 8); }\n'


def assert_one_line_error(done: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("error: ")
    assert "Traceback" not in done.stderr
    for needle in needles:
        assert needle in lines[0]


def test_missing_path(tmp_path: Path):
    done = run_curate("ingest", str(tmp_path / "nope"), "-w", str(tmp_path / "ws"))
    assert_one_line_error(done, "does not exist")
    assert not (tmp_path / "ws" / "units.parquet").exists()


def test_file_instead_of_directory(tmp_path: Path):
    f = tmp_path / "k.cpp"
    f.write_text(KERNEL)
    assert_one_line_error(run_curate("ingest", str(f), "-w", str(tmp_path / "ws")), "is a file")


def test_empty_directory(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    assert_one_line_error(
        run_curate("ingest", str(tmp_path / "empty"), "-w", str(tmp_path / "ws")), "is empty"
    )


def test_repository_without_kernels_exits_non_zero_and_writes_nothing(tree, tmp_path: Path):
    root = tree({"src/main.cpp": "int main() { return 0; }\n", "README.md": "hello\n"})
    done = run_curate("ingest", str(root), "-w", str(tmp_path / "ws"))
    assert_one_line_error(done, "no AscendC kernel entry")
    assert not (tmp_path / "ws" / "units.parquet").exists()


def test_git_url_that_cannot_be_cloned(tmp_path: Path):
    done = run_curate("ingest", f"file://{tmp_path}/missing/repo.git", "-w", str(tmp_path / "ws"))
    assert_one_line_error(done, "could not clone")
    assert not any((tmp_path / "ws" / "cache").glob("*")), "no partial clone left behind"


def test_git_url_is_cloned_and_provenance_recorded_without_credentials(tree, tmp_path: Path):
    root = tree({"ops/abs/op_kernel/abs.cpp": KERNEL})
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)
    subprocess.run(
        [*git, "remote", "add", "origin", "https://user:s3cret@example.invalid/org/abs.git"], check=True
    )
    head = subprocess.run(
        [*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    ws = tmp_path / "ws"
    done = run_curate("ingest", f"file://{root}", "-w", str(ws), "--name", "abs")
    assert done.returncode == 0, done.stderr
    units = pq.read_table(ws / "units.parquet").to_pylist()
    assert [u["kernel_name"] for u in units] == ["k"]
    assert units[0]["commit"] == head
    assert units[0]["path"] == "ops/abs/op_kernel/abs.cpp"
    # Direct ingest of the directory records the origin, minus the credentials.
    done = run_curate("ingest", str(root), "-w", str(ws), "--name", "abs-local")
    assert done.returncode == 0, done.stderr
    local = [u for u in pq.read_table(ws / "units.parquet").to_pylist() if u["source"] == "abs-local"]
    assert local[0]["origin_url"] == "https://example.invalid/org/abs.git"
    assert "s3cret" not in (ws / "units.parquet").read_bytes().decode("latin-1")


def test_bad_files_are_counted_skips_and_good_files_still_ingest(tree, tmp_path: Path):
    root = tree({"ops/good/op_kernel/good.cpp": KERNEL})
    (root / "ops" / "bin.cpp").write_bytes(b"\x7fELF\x00\x00\x01__global__")
    (root / "ops" / "gbk.cpp").write_bytes("// 注释\n".encode("gbk") + KERNEL.encode())
    big = root / "ops" / "generated.cpp"
    with big.open("w") as handle:  # a 20 MB generated file
        line = "static const int table_entry_0000000 = 1234567;  // generated\n"
        for _ in range(20_000_000 // len(line) + 1):
            handle.write(line)
    loop = root / "ops" / "loop"
    loop.symlink_to(root / "ops", target_is_directory=True)
    (root / "ops" / "self.cpp").symlink_to(root / "ops" / "self.cpp")  # a symlink to itself
    done = run_curate("ingest", str(root), "-w", str(tmp_path / "ws"))
    assert done.returncode == 0, done.stderr
    summary = done.stdout.strip().splitlines()[-1]
    assert "1 units" in summary
    for reason in (
        "binary file",
        "not UTF-8 text",
        "too large",
        "directory symlink not followed",
        "broken or looping symlink",
    ):
        assert reason in summary, summary
    # Each skipped file is listed with its reason in the ingest report.
    report = json.loads((tmp_path / "ws" / "reports" / "ingest-repo.json").read_text())
    skipped = {s["path"]: s["reason"] for s in report["skipped"]}
    assert skipped["ops/bin.cpp"] == "binary file"
    assert skipped["ops/gbk.cpp"] == "not UTF-8 text"
    assert skipped["ops/generated.cpp"].startswith("too large (20.0 MB")


def test_unreadable_file_is_a_counted_skip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    path = tmp_path / "k.cpp"
    path.write_text(KERNEL)
    if os.geteuid() != 0:
        path.chmod(0)
    else:  # root reads anything: inject the permission error the kernel would raise
        real_open = os.open

        def deny(target: object, flags: int, *args: object, **kwargs: object) -> int:
            if Path(str(target)) == path.resolve():
                raise PermissionError(13, "Permission denied", str(target))
            return real_open(target, flags, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "open", deny)
    skip = read_source(path, tmp_path, 10**6)
    assert not isinstance(skip, str)
    assert skip.reason == "unreadable (permission denied)"


def test_parser_never_crashes_on_hostile_sources(tree):
    root = tree(
        {
            "a/unbalanced.cpp": 'extern "C" __global__ __aicore__ void broken(GM_ADDR x) { {{{ (( <<< ',
            "a/macro_soup.cpp": "#define X(a) a a\n__global__ X(__global__) __aicore__ void m() {}\n",
            "a/deep.cpp": "__global__ __aicore__ void deep() {" + "{" * 3000 + "}" * 3000 + "}\n",
            "a/include_self.h": '#include "include_self.h"\n__global__ __aicore__ void rec(GM_ADDR x) {}\n',
            "a/ok.cpp": KERNEL,
        }
    )
    result = ingest_directory(root, SourceInfo("t", "", "", ""), IngestConfig(jobs=1))
    assert "k" in {u.kernel_name for u in result.units}
    assert all(u.code for u in result.units)


def test_reingest_replaces_only_that_sources_rows(tree, tmp_path: Path):
    a = tree({"ops/a/op_kernel/a.cpp": KERNEL}, name="a")
    b = tree({"ops/b/op_kernel/b.cpp": KERNEL, "ops/c/op_kernel/c.cpp": KERNEL}, name="b")
    ws = tmp_path / "ws"
    for args in (
        ("ingest", str(a), "-w", str(ws)),
        ("ingest", str(b), "-w", str(ws)),
        ("ingest", str(a), "-w", str(ws)),
    ):
        assert run_curate(*args).returncode == 0
    rows = pq.read_table(ws / "units.parquet").to_pylist()
    assert sorted((r["source"], r["path"]) for r in rows) == [
        ("a", "ops/a/op_kernel/a.cpp"),
        ("b", "ops/b/op_kernel/b.cpp"),
        ("b", "ops/c/op_kernel/c.cpp"),
    ]
    (a / "ops" / "a" / "op_kernel" / "a2.cpp").write_text(KERNEL.replace("void k", "void k2"))
    assert run_curate("ingest", str(a), "-w", str(ws)).returncode == 0
    rows = pq.read_table(ws / "units.parquet").to_pylist()
    assert sum(r["source"] == "a" for r in rows) == 2 and sum(r["source"] == "b" for r in rows) == 2


def test_failed_write_leaves_the_previous_table_and_no_temporary_file(tree, tmp_path: Path, monkeypatch):
    from curate.stages.ingest import IngestRequest, run_ingest

    root = tree({"ops/a/op_kernel/a.cpp": KERNEL})
    ws = Workspace(tmp_path / "ws")
    run_ingest(ws, IngestRequest(str(root), "a"), IngestConfig(jobs=1))
    before = ws.units.read_bytes()

    def crash(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(pq, "write_table", crash)
    with pytest.raises(OSError):
        run_ingest(ws, IngestRequest(str(root), "b"), IngestConfig(jobs=1))
    assert ws.units.read_bytes() == before
    assert sorted(p.name for p in ws.root.iterdir() if p.name.endswith(".tmp")) == []


def test_second_process_refuses_a_locked_workspace(tree, tmp_path: Path):
    root = tree({"ops/a/op_kernel/a.cpp": KERNEL})
    ws = Workspace(tmp_path / "ws")
    holding = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with ws.locked():
            holding.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait(10)
    try:
        done = run_curate("ingest", str(root), "-w", str(ws.root), env={"CURATE_LOCK_TIMEOUT": "1"})
    finally:
        release.set()
        holder.join()
    assert_one_line_error(done, "locked by another curate process")
    assert not ws.units.exists()
    # Once the lock is free, a waiting process proceeds.
    start = time.monotonic()
    assert run_curate("ingest", str(root), "-w", str(ws.root)).returncode == 0
    assert time.monotonic() - start < 60
