"""Peak memory of `curate audit` as the training side grows: synthetic Alpaca-style jsonl rows
(reasoning, then a fenced kernel), audited with --code-from auto against the example benchmark
in a child process; prints rows, wall seconds, CPU seconds (the child and the pool workers it
waited for: steadier than wall time on a shared machine) and peak RSS (the largest of those
processes) per size. Exit 0 is expected against the example benchmark (the rows hold none of its
kernels); against MultiKernelBench, exit 1 (every row that calls `Relu` solves `relu`).

    python benchmarks/bench_audit_scale.py 100000 1000000 3000000 [--engine ray] [--keep DIR] [--test DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPS = ["Add", "Sub", "Mul", "Max", "Min", "Relu", "Exp", "Abs"]


def row(rng: random.Random, i: int) -> str:
    op, t = rng.choice(OPS), rng.choice(["half", "float", "int16_t"])
    lines = "\n".join(
        f"    v{rng.randint(0, 999)} = v{rng.randint(0, 999)} * {rng.randint(2, 99)};"
        for _ in range(rng.randint(2, 6))
    )
    code = (
        f'extern "C" __global__ __aicore__ void k{i}(GM_ADDR x, GM_ADDR z) {{\n'
        f"    AscendC::LocalTensor<{t}> a = q.AllocTensor<{t}>();\n{lines}\n"
        f"    AscendC::{op}(a, a, a, {rng.randint(8, 4096)});\n}}"
    )
    output = f"The kernel tiles the input over the cores.\n\n```cpp\n{code}\n```\n\nDone."
    return json.dumps({"instruction": f"Write {op}", "input": "", "output": output})


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("sizes", nargs="+", type=int)
    parser.add_argument("--engine", default="local")
    parser.add_argument(
        "--test",
        type=Path,
        default=ROOT / "examples" / "benchmark",
        help="test side (default: the example benchmark; a MultiKernelBench reference/ folder adds "
        "task-level matching)",
    )
    parser.add_argument("--keep", type=Path, help="write the jsonl files here (default: a temporary dir)")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="audit-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    curate = [
        sys.executable,
        "-c",
        "import sys; sys.path.insert(0, sys.argv.pop(1)); from curate.cli import main; main()",
        str(ROOT),
    ]
    for n in args.sizes:
        path = work / f"train-{n}.jsonl"
        if not path.exists():
            rng = random.Random(n)
            with path.open("w") as handle:
                for i in range(n):
                    handle.write(row(rng, i) + "\n")
        cmd = [
            *curate,
            "audit",
            str(path),
            str(args.test),
            "--train-code-column",
            "output",
            "--code-from",
            "auto",
            "--engine",
            args.engine,
            "--report-dir",
            str(work / f"report-{args.engine}-{args.test.name}-{n}"),
        ]
        start = time.perf_counter()
        with tempfile.TemporaryFile() as err:
            child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
            # wait4 gives this child's own peak (RUSAGE_CHILDREN is the largest child so far).
            _, status, usage = os.wait4(child.pid, 0)
            child.returncode = os.waitstatus_to_exitcode(status)
            err.seek(0)
            tail = err.read().decode(errors="replace").strip()[-200:]
        seconds = time.perf_counter() - start
        cpu = usage.ru_utime + usage.ru_stime
        print(
            f"{n:>9,} rows ({path.stat().st_size / 1e6:,.0f} MB): exit {child.returncode}, {seconds:,.1f} s, "
            f"{cpu:,.1f} s CPU, peak RSS {usage.ru_maxrss / 1024:,.0f} MB {tail}",
            flush=True,
        )


if __name__ == "__main__":
    main()
