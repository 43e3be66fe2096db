"""Run the pipeline's read-only stages over real repositories and print one table row per repository.

    python benchmarks/sweep.py REPO_DIR... [--curate PATH] [--work DIR] [--check-sample 150]
                                           [--benchmark DIR] [--jobs N] [--json FILE]

For each repository, through the installed `curate` command (each step a subprocess, as a user
runs it): `ingest` into a fresh workspace, `ingest --benchmark` of the benchmark (default: this
project's examples/benchmark), `stats --json`, `check-kernel --json` over a sample of the entry
files, `dedup`, and `audit WORKSPACE BENCHMARK`. A crash is a step that exits with a status
other than the ones it documents (0, 1 for findings, 2 for bad input) or prints a traceback.

Columns: files seen, units, crashes, skipped units and files (by reason), partial-parse share,
category `other` share, check-kernel acceptance on the sampled entry files (at most
--check-sample per repository, chosen with a fixed seed: the checker takes ~0.12 s a file), the
unit size (median / p90 / max lines), dedup time and leakage.json size, and the wall time of all
steps. Not a test: it needs the repositories.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

PROJECT = Path(__file__).resolve().parent.parent
DOCUMENTED_STATUS = {"ingest": {0}, "stats": {0}, "check-kernel": {0, 1}, "dedup": {0}, "audit": {0, 1}}


@dataclass
class Row:
    repo: str
    files: int = 0
    units: int = 0
    crashes: list[str] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)
    partial: float = 0.0
    other: float = 0.0
    checked: int = 0
    accepted: int = 0
    entry_files: int = 0
    lines: list[int] = field(default_factory=list)
    dedup_s: float = 0.0
    leakage_bytes: int = 0
    audit: str = ""
    wall_s: float = 0.0
    steps: dict[str, float] = field(default_factory=dict)


def _run(row: Row, step: str, argv: list[str], timeout: float) -> subprocess.CompletedProcess[str] | None:
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        row.crashes.append(f"{step}: timeout after {timeout:.0f} s")
        return None
    finally:
        row.steps[step] = round(time.perf_counter() - start, 2)
    name = step.split(" ")[0]
    if done.returncode not in DOCUMENTED_STATUS.get(name, {0}) or "Traceback" in done.stderr:
        last = (done.stderr.strip().splitlines() or ["(no stderr)"])[-1]
        row.crashes.append(f"{step}: exit {done.returncode}: {last[:300]}")
    return done


def _reason(text: str) -> str:
    return text.split(" (")[0].split(":")[0]


def sweep_one(repo: Path, args: argparse.Namespace, work: Path) -> Row:
    row = Row(repo.name)
    ws = work / repo.name
    curate = args.curate
    start = time.perf_counter()
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    done = _run(
        row, "ingest", [curate, "ingest", str(repo), "-w", str(ws), "--name", repo.name, *jobs], args.timeout
    )
    report = ws / "reports" / f"ingest-{repo.name}.json"
    if done is not None and report.exists():
        data = json.loads(report.read_text())
        row.files, row.units, row.entry_files = data["files_seen"], data["rows"], data.get("entry_files", 0)
        row.skipped.update(_reason(s["reason"]) for s in data["skipped"])
    units_path = ws / "units.parquet"
    if not units_path.exists():
        row.wall_s = time.perf_counter() - start
        return row
    _run(row, "ingest --benchmark", [curate, "ingest", args.benchmark, "--benchmark", "-w", str(ws)], 600)
    units = pl.read_parquet(units_path, columns=["path", "parse_status", "category", "code"])
    row.units = units.height
    row.partial = units.filter(pl.col("parse_status") == "partial").height / max(units.height, 1)
    row.other = units.filter(pl.col("category") == "other").height / max(units.height, 1)
    row.lines = [c.count("\n") + 1 for c in units["code"].to_list()]
    _run(row, "stats", [curate, "stats", "-w", str(ws), "--json"], 300)

    paths = sorted({p for p in units["path"].to_list() if (repo / p).is_file()})
    sample = sorted(random.Random(0).sample(paths, min(len(paths), args.check_sample)))
    if sample:
        done = _run(
            row,
            "check-kernel",
            [curate, "check-kernel", "--json", "--no-cann", *[str(repo / p) for p in sample]],
            args.timeout,
        )
        if done is not None:
            results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
            row.checked = len(results)
            row.accepted = sum(1 for r in results if r.get("ok"))

    t0 = time.perf_counter()
    _run(row, "dedup", [curate, "dedup", "-w", str(ws)], args.timeout)
    row.dedup_s = time.perf_counter() - t0
    leakage = ws / "reports" / "leakage.json"
    row.leakage_bytes = leakage.stat().st_size if leakage.exists() else 0
    done = _run(
        row,
        "audit",
        [curate, "audit", str(ws), args.benchmark, "--report-dir", str(ws / "audit"), "--json"],
        args.timeout,
    )
    if done is not None and done.stdout.startswith("{"):
        counts = json.loads(done.stdout)["counts"]
        row.audit = f"{counts['leaked_items']}/{counts['test_items']}"
    row.wall_s = time.perf_counter() - start
    return row


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _sizes(lines: list[int]) -> str:
    if not lines:
        return "-"
    ordered = sorted(lines)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered):.0f} / {p90} / {ordered[-1]}"


def table(rows: list[Row], sample: int) -> str:
    out = [
        "| repository | files | units | crashes | skipped (reasons) | partial | `other` | "
        f"check-kernel (sample <= {sample}) | lines median / p90 / max | dedup s | leakage.json | "
        "audit leaked | wall s |",
        "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        skipped = ", ".join(f"{n} {reason}" for reason, n in r.skipped.most_common()) or "0"
        check = f"{r.accepted}/{r.checked} ({_pct(r.accepted / r.checked)})" if r.checked else "-"
        out.append(
            f"| {r.repo} | {r.files} | {r.units} | {len(r.crashes)} | {skipped} | {_pct(r.partial)} | "
            f"{_pct(r.other)} | {check} | {_sizes(r.lines)} | {r.dedup_s:.1f} | "
            f"{r.leakage_bytes / 1e3:.0f} kB | {r.audit or '-'} | {r.wall_s:.0f} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("repos", nargs="+", type=Path)
    parser.add_argument("--curate", default="curate", help="the curate executable (default: on PATH)")
    parser.add_argument("--work", type=Path, help="where the workspaces go (default: a temporary directory)")
    parser.add_argument("--benchmark", default=str(PROJECT / "examples" / "benchmark"))
    parser.add_argument("--check-sample", type=int, default=150)
    parser.add_argument("--jobs", type=int, default=0, help="ingest parser processes (default: curate's)")
    parser.add_argument("--timeout", type=float, default=3600)
    parser.add_argument("--json", type=Path, help="also write every row (with crash messages) here")
    args = parser.parse_args(argv)
    missing = [str(r) for r in args.repos if not r.is_dir()]
    if missing:
        print(f"error: not a directory: {', '.join(missing)}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="curate-sweep-") as tmp:
        work = args.work or Path(tmp)
        rows = []
        for repo in args.repos:
            row = sweep_one(repo.resolve(), args, work)
            rows.append(row)
            print(
                f"{row.repo}: {row.units} units, {len(row.crashes)} crashes, {row.wall_s:.0f} s",
                file=sys.stderr,
            )
            for crash in row.crashes:
                print(f"  crash: {crash}", file=sys.stderr)
            if args.json:
                payload: list[dict[str, Any]] = [
                    {**{k: v for k, v in vars(r).items() if k != "lines"}, "sizes": _sizes(r.lines)}
                    for r in rows
                ]
                args.json.write_text(json.dumps(payload, indent=2, default=str) + "\n")
    print(table(rows, args.check_sample))
    return 0 if not any(r.crashes for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
