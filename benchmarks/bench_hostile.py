"""Hostile inputs for ingest, and what ingesting them costs: peak RSS of the whole process tree
(the command, its fork server and its workers) and wall time.

    python benchmarks/bench_hostile.py [--curate PATH] [--only bomb,many,corpus] [--timeout S]

Generates, in a temporary directory:
  bomb    a macro bomb: each macro doubles the one before, 2^31 tokens in one kernel body
  many    3,000 kernels in one .cpp file (about 244 KB)
  corpus  20,000 files: 200 kernel entry files, the rest headers and host sources
and runs `curate ingest` on each in a subprocess, sampling /proc every 0.1 s. Not a test.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void {name}(GM_ADDR x, GM_ADDR y, GM_ADDR z) {{
    AscendC::GlobalTensor<half> g;
    g.SetGlobalBuffer((__gm__ half *)x, {size});
}}
"""


def macro_bomb(root: Path) -> None:
    lines = ["#define B0 x+x"] + [f"#define B{i} B{i - 1} + B{i - 1}" for i in range(1, 32)]
    body = "\n".join(lines) + '\nextern "C" __global__ __aicore__ void bomb(int x) { int y = B31; }\n'
    (root / "op_kernel").mkdir(parents=True)
    (root / "op_kernel" / "bomb.cpp").write_text(body)


def many_kernels(root: Path, count: int = 3000) -> None:
    (root / "op_kernel").mkdir(parents=True)
    one = 'extern "C" __global__ __aicore__ void k{i}(GM_ADDR x) {{ AscendC::Abs(x, x, {i}); }}\n'
    text = '#include "kernel_operator.h"\n' + "".join(one.format(i=i) for i in range(count))
    (root / "op_kernel" / "many.cpp").write_text(text)  # about 244 KB


def corpus(root: Path, files: int = 20_000, kernels: int = 200) -> None:
    for i in range(files):
        folder = root / f"op{i // 100:03d}"
        folder.mkdir(exist_ok=True)
        if i % (files // kernels) == 0:
            (folder / f"k{i}.cpp").write_text(KERNEL.format(name=f"k{i}", size=i))
        else:
            (folder / f"h{i}.h").write_text(f"#pragma once\nstatic const int value{i} = {i};\n")


INPUTS: dict[str, Callable[[Path], None]] = {"bomb": macro_bomb, "many": many_kernels, "corpus": corpus}


def _tree_rss_mb(pid: int) -> float:
    """Resident memory of `pid` and every descendant, in MB."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
        rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        total += rss.get(current, 0)
        todo += children.get(current, [])
    return total / 1e6


def measure(curate: str, source: Path, workspace: Path, timeout: float) -> tuple[float, float, int, str]:
    """(wall s, peak tree RSS MB, exit status, last stderr/stdout line) of one ingest."""
    start = time.monotonic()
    proc = subprocess.Popen(
        [curate, "ingest", str(source), "--workspace", str(workspace), "--name", "hostile"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        cwd=workspace.parent,  # not a checkout: a fork server would import its `parsers` first
    )
    peak = 0.0
    while proc.poll() is None:
        peak = max(peak, _tree_rss_mb(proc.pid))
        if time.monotonic() - start > timeout:
            os.killpg(proc.pid, 9)
            proc.wait()
            return time.monotonic() - start, peak, -9, f"killed after {timeout:g} s"
        time.sleep(0.1)
    wall = time.monotonic() - start
    out = (proc.stdout.read() if proc.stdout else "").strip().splitlines()
    return wall, peak, proc.returncode, out[-1][:300] if out else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--curate", default=shutil.which("curate") or "curate")
    parser.add_argument("--only", default=",".join(INPUTS))
    parser.add_argument("--timeout", type=float, default=900.0)
    args = parser.parse_args()
    for name in args.only.split(","):
        with tempfile.TemporaryDirectory(prefix=f"hostile-{name}-") as tmp:
            source = Path(tmp) / name
            source.mkdir()
            INPUTS[name](source)
            wall, peak, code, line = measure(args.curate, source, Path(tmp) / "ws", args.timeout)
            print(f"{name}: {wall:.1f} s, peak tree RSS {peak:.0f} MB, exit {code}: {line}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
