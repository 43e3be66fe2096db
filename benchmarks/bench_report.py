"""How big and how slow `curate report` is on a large workspace: a small workspace (built by
tests/report_workspace.py, or any given one) is replicated until it holds N units (each copy's
unit ids suffixed; decisions, annotations, attempts and leak pairs copied with them), then the
report is written several times; prints the page size and the median wall time.

    python -m benchmarks.bench_report SMALL_WS [--units 20000] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl


def _replicate(frame: pl.DataFrame, copies: int) -> pl.DataFrame:
    parts = [frame.with_columns((pl.col("unit_id") + f"-{i}").alias("unit_id")) for i in range(copies)]
    return pl.concat(parts)


def scale(small: Path, big: Path, units: int) -> int:
    shutil.copytree(small, big)
    base = pl.read_parquet(small / "units.parquet")
    copies = math.ceil(units / base.height)
    for table in ("units", "decisions", "annotations", "attempts"):
        path = small / f"{table}.parquet"
        if path.exists():
            _replicate(pl.read_parquet(path), copies).write_parquet(big / f"{table}.parquet")
    leakage = small / "reports" / "leakage.json"
    if leakage.exists():
        data = json.loads(leakage.read_text())
        data["leaks"] = [
            {**r, "unit_id": f"{r['unit_id']}-{i}"} for i in range(copies) for r in data["leaks"]
        ]
        (big / "reports" / "leakage.json").write_text(json.dumps(data))
    return base.height * copies


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--units", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    curate = Path(sys.executable).with_name("curate")
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "ws"
        count = scale(args.workspace, big, args.units)
        times, size = [], 0
        for _ in range(args.runs):
            started = time.perf_counter()
            done = subprocess.run(
                [str(curate), "report", "-w", str(big), "--json"], capture_output=True, text=True
            )
            times.append(time.perf_counter() - started)
            if done.returncode:
                raise SystemExit(done.stderr)
            size = json.loads(done.stdout)["bytes"]
        leaks = len(json.loads((big / "reports" / "leakage.json").read_text())["leaks"])
        print(
            f"{count} units, {leaks} leak pairs: page {size / 1e6:.2f} MB; wall time median "
            f"{statistics.median(times):.1f} s over {args.runs} runs ({', '.join(f'{t:.1f}' for t in times)})"
        )


if __name__ == "__main__":
    main()
