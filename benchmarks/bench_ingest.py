"""Ingest throughput against bare libclang parsing of the same files, in one run.

    python benchmarks/bench_ingest.py REPO_DIR [--jobs N] [--runs 3]

Prints, per run and as medians: the ingest wall time, files/s, units/s, peak memory, and the
wall time of a bare libclang parse (`-x c++ -std=c++17`, no prelude, no stubs) of the same entry
files with the same number of processes, and the ratio ingest / bare. Not a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import clang.cindex as ci

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parsers.config import IngestConfig
from parsers.ingest import ingest_directory, scan_repository
from parsers.units import SourceInfo

_INDEX: ci.Index | None = None


def _bare_parse(paths: list[str]) -> int:
    global _INDEX
    if _INDEX is None:
        _INDEX = ci.Index.create()
    for path in paths:
        _INDEX.parse(path, args=["-x", "c++", "-std=c++17"], options=ci.TranslationUnit.PARSE_INCOMPLETE)
    return len(paths)


def bare_parse_seconds(root: Path, rels: list[str], jobs: int) -> float:
    paths = [str(root / r) for r in rels]
    chunks = [paths[i : i + 16] for i in range(0, len(paths), 16)]
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        sum(pool.map(_bare_parse, chunks))
    return time.perf_counter() - start


def peak_rss_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    config = IngestConfig(jobs=args.jobs)
    candidates = scan_repository(args.repo, config).candidates
    rows = []
    for run in range(1, args.runs + 1):
        start = time.perf_counter()
        result = ingest_directory(args.repo, SourceInfo("bench", "", "", ""), config)
        ingest_s = time.perf_counter() - start
        bare_s = bare_parse_seconds(args.repo, candidates, args.jobs)
        rows.append((ingest_s, bare_s))
        print(
            f"run {run}: ingest {ingest_s:.2f} s ({result.files_seen / ingest_s:.0f} files/s, "
            f"{len(result.units) / ingest_s:.1f} units/s, {len(result.units)} units from {result.files_seen} files), "
            f"bare libclang {bare_s:.2f} s over {len(candidates)} entry files, ratio {ingest_s / bare_s:.2f}"
        )
    ingest_med = statistics.median(r[0] for r in rows)
    bare_med = statistics.median(r[1] for r in rows)
    ratio_med = statistics.median(r[0] / r[1] for r in rows)
    print(
        f"median over {args.runs} runs, {args.jobs} processes: ingest {ingest_med:.2f} s, "
        f"bare libclang {bare_med:.2f} s, ratio {ratio_med:.2f}; peak memory {peak_rss_mb():.0f} MB"
    )


if __name__ == "__main__":
    main()
