"""How long `curate --help`, `curate --version` and every command's `--help` take, as a user
waits for them: a whole-process timer around the installed `curate` command, median of N runs.

Cold runs drop the page cache before each run (`echo 3 > /proc/sys/vm/drop_caches`, root only;
otherwise only warm runs are measured). Wall time is reported beside the CPU time (user + system)
of the process, which a loaded machine inflates less.

    python benchmarks/bench_cli_start.py [--curate .venv/bin/curate] [--runs 5] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = (
    "ingest",
    "ingest-docs",
    "stats",
    "dedup",
    "audit",
    "build",
    "push",
    "annotate",
    "verify",
    "check-kernel",
    "doctor",
    "report",
)


def drop_caches() -> bool:
    """Empty the page cache (root only); False when this machine does not let us."""
    try:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
    except OSError:
        return False
    return True


def one_run(argv: list[str], cold: bool) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of `argv`."""
    if cold:
        drop_caches()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(argv: list[str], runs: int, cold: bool) -> dict[str, float]:
    if not cold:
        one_run(argv, cold=False)  # warm the cache first
    samples = [one_run(argv, cold) for _ in range(runs)]
    return {
        "wall_s": round(statistics.median(s[0] for s in samples), 3),
        "cpu_s": round(statistics.median(s[1] for s in samples), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--curate", default=shutil.which("curate") or str(Path(sys.executable).with_name("curate"))
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    can_drop = drop_caches()
    if not can_drop:
        print("cannot drop the page cache (not root): warm runs only", file=sys.stderr)
    base = measure([sys.executable, "-c", "pass"], args.runs, cold=False)
    print(f"python -c pass (this machine's floor): warm {base}")
    results: dict[str, dict[str, dict[str, float]]] = {}
    for case in (["--help"], ["--version"], *([c, "--help"] for c in COMMANDS)):
        row = {"warm": measure([args.curate, *case], args.runs, cold=False)}
        if can_drop:
            row["cold"] = measure([args.curate, *case], args.runs, cold=True)
        results[" ".join(case)] = row
        print(f"curate {' '.join(case)}: {row}", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"floor": base, "runs": args.runs, "results": results}, indent=1))


if __name__ == "__main__":
    main()
