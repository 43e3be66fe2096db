"""Hostile repositories through `curate ingest` as a user runs it: nothing outside the repository
is read (links to files and directories elsewhere are refused and named), no special file hangs
the walk, a file that sinks its parser worker is skipped alone, include cycles end, and the
parser workers never outlive the command."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pyarrow.parquet as pq

from tests.conftest import REPO_ROOT, run_curate, write_tree

KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void {name}(GM_ADDR x, GM_ADDR y) {{
    AscendC::GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half *)x, 8);
}}
"""
OUTSIDE_MARK = "OUTSIDE-THE-REPOSITORY-7f3a"
MACRO_BOMB = (
    "\n".join(["#define B0 x+x"] + [f"#define B{i} B{i - 1} + B{i - 1}" for i in range(1, 32)])
    + '\nextern "C" __global__ __aicore__ void bomb(int x) { int y = B31; }\n'
)


def _units(ws: Path) -> list[dict[str, object]]:
    return pq.read_table(ws / "units.parquet").to_pylist()


def _report(ws: Path, name: str) -> dict[str, object]:
    data: dict[str, object] = json.loads((ws / "reports" / f"ingest-{name}.json").read_text())
    return data


def _skips(ws: Path, name: str) -> dict[str, str]:
    skipped = _report(ws, name)["skipped"]
    assert isinstance(skipped, list)
    return {s["path"]: s["reason"] for s in skipped}


def _outside(tmp_path: Path) -> Path:
    outside = tmp_path / "elsewhere"
    write_tree(
        outside,
        {
            "passwd.md": f"# Passwd\n\n## Entries\n\nroot:x:0:0:{OUTSIDE_MARK}:/root:/bin/bash\n"
            + "more text " * 40,
            "docs/secret.md": f"# Secret\n\n## 功能说明\n\n{OUTSIDE_MARK} in a linked docs folder.\n",
            "LICENSE": "MIT License\n\nPermission is hereby granted, free of charge, to any person\n",
            "private.h": f"// {OUTSIDE_MARK}\nstatic const int leaked = 1;\n",
        },
    )
    return outside


def test_links_leaving_the_repository_are_refused_and_named(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    root = write_tree(
        tmp_path / "repo",
        {
            "add/op_kernel/add.cpp": KERNEL.format(name="add"),
            "sub/op_kernel/sub.cpp": KERNEL.format(name="sub"),
            "mul/op_kernel/mul.cpp": KERNEL.format(name="mul"),
            "mul/README.md": "# Mul\n\n## 功能说明\n\nIN-TREE-DOC multiplies x by y.\n",
        },
    )
    (root / "add" / "README.md").symlink_to(outside / "passwd.md")
    (root / "sub" / "docs").symlink_to(outside / "docs", target_is_directory=True)
    (root / "LICENSE").symlink_to(outside / "LICENSE")
    ws = tmp_path / "ws"
    done = run_curate("ingest", str(root), "-w", str(ws), "--name", "r")
    assert done.returncode == 0, done.stderr
    table = (ws / "units.parquet").read_bytes()
    units = _units(ws)
    assert sorted(u["kernel_name"] for u in units) == ["add", "mul", "sub"]
    text = json.dumps(units, ensure_ascii=False)
    assert OUTSIDE_MARK not in text and OUTSIDE_MARK.encode() not in table
    assert "IN-TREE-DOC" in text  # documentation inside the repository is still read
    assert {u["license"] for u in units} == {"unknown"}  # the linked MIT licence is not read
    skips = _skips(ws, "r")
    assert "outside the repository" in skips["add/README.md"]
    assert "outside the repository" in skips["sub/docs/secret.md"]
    assert "outside the repository" in skips["LICENSE"]


def test_an_included_header_linked_outside_is_not_read(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    root = write_tree(
        tmp_path / "repo",
        {"k/op_kernel/k.cpp": '#include "private.h"\n' + KERNEL.format(name="k")},
    )
    (root / "k" / "op_kernel" / "private.h").symlink_to(outside / "private.h")
    ws = tmp_path / "ws"
    done = run_curate("ingest", str(root), "-w", str(ws), "--name", "r")
    assert done.returncode == 0, done.stderr
    assert OUTSIDE_MARK not in json.dumps(_units(ws))
    assert "outside the repository" in _skips(ws, "r")["k/op_kernel/private.h"]


def test_a_fifo_named_like_source_does_not_hang_ingest(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "repo", {"op/op_kernel/add.cpp": KERNEL.format(name="add")})
    os.mkfifo(root / "op" / "op_kernel" / "pipe.cpp")
    os.mkfifo(root / "op" / "README.md")
    ws = tmp_path / "ws"
    done = run_curate("ingest", str(root), "-w", str(ws), "--name", "r", timeout=120)
    assert done.returncode == 0, done.stderr
    assert [u["kernel_name"] for u in _units(ws)] == ["add"]
    assert _skips(ws, "r")["op/op_kernel/pipe.cpp"] == "not a regular file"


def test_libclang_reads_no_header_outside_the_repository(tmp_path: Path) -> None:
    # The resolver refuses both includes, but libclang looks for a quoted include beside the
    # includer itself: before, it parsed the outside file, and its errors became the unit's
    # diagnostics in the dataset ("expected unqualified-id" at linked.h:1).
    outside = write_tree(tmp_path / "elsewhere", {"broken.h": "this is not C++ at all;\n"})
    entry = '#include "linked.h"\n#include "../../../elsewhere/broken.h"\n' + KERNEL.format(name="k")
    root = write_tree(tmp_path / "repo", {"k/op_kernel/k.cpp": entry})
    (root / "k" / "op_kernel" / "linked.h").symlink_to(outside / "broken.h")
    ws = tmp_path / "ws"
    done = run_curate("ingest", str(root), "-w", str(ws), "--name", "r")
    assert done.returncode == 0, done.stderr
    (unit,) = _units(ws)
    read_outside = [d for d in unit["diagnostics"] if str(d["path"]).endswith(("linked.h", "broken.h"))]
    assert read_outside == [], "libclang parsed a file outside the repository"


def test_a_fifo_an_entry_includes_does_not_hold_the_parse(tmp_path: Path) -> None:
    # libclang opens an included file itself: a FIFO behind `#include "pipe.h"` waited for a
    # writer until the worker's timeout (120 s), and the kernel was lost with it.
    root = write_tree(
        tmp_path / "repo", {"op/op_kernel/add.cpp": '#include "pipe.h"\n' + KERNEL.format(name="add")}
    )
    os.mkfifo(root / "op" / "op_kernel" / "pipe.h")
    ws = tmp_path / "ws"
    started = time.monotonic()
    done = run_curate("ingest", str(root), "-w", str(ws), "--name", "r", timeout=100)
    assert done.returncode == 0, done.stderr
    assert [u["kernel_name"] for u in _units(ws)] == ["add"]
    assert time.monotonic() - started < 60, "the parse waited on the FIFO"


def test_a_file_that_includes_itself_gives_one_unit(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "repo", {"op/op_kernel/self.cpp": '#include "self.cpp"\n' + KERNEL.format(name="loop")}
    )
    ws = tmp_path / "ws"
    done = run_curate("ingest", str(root), "-w", str(ws), "--name", "r")
    assert done.returncode == 0, done.stderr
    assert [u["kernel_name"] for u in _units(ws)] == ["loop"]


def test_a_file_with_thousands_of_kernels_is_skipped_with_the_reason(tmp_path: Path) -> None:
    many = "".join(
        KERNEL.format(name=f"k{i}").replace('#include "kernel_operator.h"\n', "") for i in range(3000)
    )
    root = write_tree(
        tmp_path / "repo",
        {"gen/op_kernel/many.cpp": many, "op/op_kernel/add.cpp": KERNEL.format(name="add")},
    )
    ws = tmp_path / "ws"
    start = time.monotonic()
    done = run_curate("ingest", str(root), "-w", str(ws), "--name", "r")
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - start < 120  # main took over four minutes on this file
    assert [u["kernel_name"] for u in _units(ws)] == ["add"]
    assert "too many kernel entries (3000 > 500" in _skips(ws, "r")["gen/op_kernel/many.cpp"]


def test_a_file_over_the_limits_is_skipped_alone_and_the_others_are_parsed(tmp_path: Path) -> None:
    files = {f"op{i}/op_kernel/k{i}.cpp": KERNEL.format(name=f"k{i}") for i in range(9)}
    files["bomb/op_kernel/bomb.cpp"] = MACRO_BOMB
    root = write_tree(tmp_path / "repo", files)
    config = write_tree(tmp_path, {"curate.toml": "[ingest]\nfile_timeout_s = 8\nworker_memory_mb = 1500\n"})
    ws = tmp_path / "ws"
    done = run_curate(
        "ingest",
        str(root),
        "-w",
        str(ws),
        "--name",
        "r",
        "--jobs",
        "2",
        "--config",
        str(config / "curate.toml"),
    )
    assert done.returncode == 0, done.stderr
    assert sorted(u["kernel_name"] for u in _units(ws)) == [f"k{i}" for i in range(9)]
    reason = _skips(ws, "r")["bomb/op_kernel/bomb.cpp"]
    limits = (
        "longer than 8 s",
        "crashed",
        "MemoryError",
        "could not parse",
    )  # libclang gives up under RLIMIT_AS
    assert any(words in reason for words in limits), reason


def test_a_libclang_crash_skips_its_file_alone(tmp_path: Path) -> None:
    """A 350,000-term expression overflows libclang's parser stack (SIGSEGV): on main it took the
    whole ingest down (under 8 entry files) or marked innocent files 'worker crashed'."""
    files = {f"op{i}/op_kernel/k{i}.cpp": KERNEL.format(name=f"k{i}") for i in range(8)}
    deep = "+".join(["x"] * 350_000)
    files["deep/op_kernel/deep.cpp"] = (
        f'extern "C" __global__ __aicore__ void deep(int x) {{ int y = {deep}; }}\n'
    )
    root = write_tree(tmp_path / "repo", files)
    ws = tmp_path / "ws"
    done = run_curate("ingest", str(root), "-w", str(ws), "--name", "r", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    assert sorted(u["kernel_name"] for u in _units(ws)) == [f"k{i}" for i in range(8)]
    assert _skips(ws, "r") == {"deep/op_kernel/deep.cpp": "parser worker crashed (SIGSEGV) on this file"}


# ---- workers never outlive the command ---------------------------------------------------


def _marked_processes(mark: str) -> list[int]:
    """Processes whose environment carries `mark` (the command, its fork server, its workers)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if mark.encode() in Path(f"/proc/{entry}/environ").read_bytes():
                    pids.append(int(entry))
            except OSError:
                continue
    return pids


def _start_slow_ingest(tmp_path: Path, mark: str) -> tuple[subprocess.Popen[str], Path]:
    # 8 entry files: main parsed fewer in its own process, and its pool is what outlived a SIGKILL
    files = {f"op{i}/op_kernel/bomb{i}.cpp": MACRO_BOMB.replace("bomb(", f"bomb{i}(") for i in range(8)}
    root = write_tree(tmp_path / "repo", files)
    ws = tmp_path / "ws"
    env = {**os.environ, "CURATE_TEST_MARK": mark, "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "curate.cli", "ingest", str(root), "-w", str(ws), "--jobs", "2"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not _parsing(mark, proc.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()
    return proc, ws


def _parsing(mark: str, command: int) -> bool:
    """A worker is inside a parse of the bomb (over 400 MB resident): a worker still starting
    would notice on its own that the command is gone."""
    for pid in _marked_processes(mark):
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        rss_kb = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS")), 0)
        if pid != command and rss_kb > 400_000:
            return True
    return False


def _gone_within(mark: str, seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := _marked_processes(mark)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def test_workers_end_when_the_command_is_killed(tmp_path: Path) -> None:
    mark = uuid.uuid4().hex
    proc, _ = _start_slow_ingest(tmp_path, mark)
    proc.kill()
    proc.wait()
    left = _gone_within(mark, 10)
    for pid in left:  # do not leave them running when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not left, f"{len(left)} processes outlived a SIGKILLed ingest"


def _interrupt(tmp_path: Path, sig: signal.Signals, expected: int) -> None:
    mark = uuid.uuid4().hex
    proc, ws = _start_slow_ingest(tmp_path, mark)
    start = time.monotonic()
    proc.send_signal(sig)  # to the command alone, as `kill` does; Ctrl-C also reaches the workers
    try:
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
        took = time.monotonic() - start
        left = _gone_within(mark, 5)
        for pid in left:  # never leave a parse of the macro bomb running
            os.kill(pid, signal.SIGKILL)
    assert proc.returncode == expected, err
    assert took < 2.0, f"{sig.name} took {took:.1f} s to stop ingest"
    assert not left
    assert "Traceback" not in err
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and "run the same command again" in lines[0], err
    assert not (ws / "units.parquet").exists()
    assert not [p for p in ws.rglob("*") if p.name.endswith(".tmp")]


def test_ctrl_c_stops_ingest_within_two_seconds(tmp_path: Path) -> None:
    _interrupt(tmp_path, signal.SIGINT, 130)


def test_sigterm_stops_ingest_within_two_seconds(tmp_path: Path) -> None:
    _interrupt(tmp_path, signal.SIGTERM, 143)


def test_ingest_docs_does_not_read_pages_linked_outside(tmp_path: Path) -> None:
    outside = _outside(tmp_path)
    page = (
        "# Add\n\n## Description\n\nIN-TREE-PAGE: "
        + "Add computes z = x + y element by element. " * 12
        + "\n"
    )
    root = write_tree(tmp_path / "docs", {"guide/add.md": page})
    (root / "guide" / "passwd.md").symlink_to(outside / "passwd.md")
    ws = tmp_path / "ws"
    done = run_curate("ingest-docs", str(root), "-w", str(ws), "--name", "d")
    assert done.returncode == 0, done.stderr
    text = json.dumps(pq.read_table(ws / "docs.parquet").to_pylist(), ensure_ascii=False)
    assert "IN-TREE-PAGE" in text and OUTSIDE_MARK not in text
    assert "refused: guide/passwd.md: outside the repository" in done.stdout  # named, not only counted
