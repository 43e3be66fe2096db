"""Ingest throughput against bare libclang parsing of the same files, and re-ingest with the
parse cache, in one run.

    python benchmarks/bench_ingest.py REPO_DIR [--jobs N] [--runs 3]

The repository is copied to a temporary directory first (one of its entry files is edited by the
third measurement). Prints, per run and as medians:
- the first ingest's wall time (an empty parse cache, which it fills), files/s, units/s;
- the wall time of a bare libclang parse (`-x c++ -std=c++17`, no prelude, no stubs) of the same
  entry files with the same number of processes, and the ratio ingest / bare;
- a re-ingest of the unchanged copy, and one after a comment is added to one operator's entry
  file, each as a fraction of the first ingest, with the entry files parsed and reused;
- the peak resident memory of this process and of the largest child (a parser worker; with
  `--cli`, a `curate` process too);
- with `--cli`, the same first ingest, unchanged re-ingest and one-file-edited re-ingest as whole
  `curate ingest` processes (interpreter start, imports, the units table written or kept, the
  report and run record).
Not a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import clang.cindex as ci

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from parsers.config import IngestConfig
from parsers.ingest import IngestResult, ingest_directory
from parsers.scan import scan_repository
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


def peak_rss_mb() -> tuple[float, float]:
    """(this process, the largest child) peak resident memory in MB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return own / 1024, children / 1024


def timed_ingest(root: Path, config: IngestConfig, cache: Path) -> tuple[float, IngestResult]:
    start = time.perf_counter()
    result = ingest_directory(root, SourceInfo("bench", "", "", ""), config, cache_path=cache)
    return time.perf_counter() - start, result


def timed_cli(root: Path, workspace: Path, jobs: int) -> float:
    """Wall time of one `curate ingest` process (this interpreter, the project's CLI)."""
    command = [sys.executable, "-m", "curate", "ingest", str(root), "-w", str(workspace), "--jobs", str(jobs)]
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repo", type=Path)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cli", action="store_true", help="also time whole `curate ingest` processes")
    args = parser.parse_args()
    config = IngestConfig(jobs=args.jobs)
    cli_rows: list[tuple[float, float, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / args.repo.resolve().name
        shutil.copytree(args.repo, repo, symlinks=True, ignore=shutil.ignore_patterns(".git"))
        scan = scan_repository(repo, config)
        parsed_files = scan.candidates  # every file with an entry (as the bench has always parsed)
        edited = repo / scan.sources[len(scan.sources) // 2]
        rows = []
        for run in range(1, args.runs + 1):
            cache = Path(tmp) / f"parse-{run}.sqlite"
            first_s, result = timed_ingest(repo, config, cache)
            bare_s = bare_parse_seconds(repo, parsed_files, args.jobs)
            same_s, same = timed_ingest(repo, config, cache)
            edited.write_text(edited.read_text() + f"\n// edited by bench_ingest, run {run}\n")
            one_s, one = timed_ingest(repo, config, cache)
            rows.append((first_s, bare_s, same_s, one_s))
            n = len(result.units)
            print(
                f"run {run}: ingest {first_s:.2f} s ({result.files_seen / first_s:.0f} files/s, "
                f"{n / first_s:.1f} units/s, {n} units from {result.files_seen} files, {result.parsed} parsed), "
                f"bare libclang {bare_s:.2f} s over {len(parsed_files)} entry files, ratio {first_s / bare_s:.2f}; "
                f"re-ingest unchanged {same_s:.2f} s ({same_s / first_s:.1%}, {same.parsed} parsed, "
                f"{same.reused} reused), one file edited {one_s:.2f} s ({one_s / first_s:.1%}, "
                f"{one.parsed} parsed)",
                flush=True,
            )
            if args.cli:
                workspace = Path(tmp) / f"ws-{run}"
                cli_first = timed_cli(repo, workspace, args.jobs)
                cli_same = timed_cli(repo, workspace, args.jobs)
                edited.write_text(edited.read_text() + f"\n// edited by bench_ingest, run {run}, CLI\n")
                cli_one = timed_cli(repo, workspace, args.jobs)
                cli_rows.append((cli_first, cli_same, cli_one))
                print(
                    f"run {run}: curate ingest {cli_first:.2f} s, unchanged re-ingest {cli_same:.2f} s "
                    f"({cli_same / cli_first:.1%}), one file edited {cli_one:.2f} s ({cli_one / cli_first:.1%})",
                    flush=True,
                )
    med = [statistics.median(r[i] for r in rows) for i in range(4)]
    ratio = statistics.median(r[0] / r[1] for r in rows)
    same_f = statistics.median(r[2] / r[0] for r in rows)
    one_f = statistics.median(r[3] / r[0] for r in rows)
    own, worker = peak_rss_mb()
    print(
        f"median over {args.runs} runs, {args.jobs} processes: ingest {med[0]:.2f} s, bare libclang "
        f"{med[1]:.2f} s, ratio {ratio:.2f}; re-ingest unchanged {med[2]:.2f} s ({same_f:.1%}), one file "
        f"edited {med[3]:.2f} s ({one_f:.1%}); peak memory {own:.0f} MB (command), {worker:.0f} MB (largest worker)"
    )
    if cli_rows:
        cli_first, cli_same, cli_one = (statistics.median(r[i] for r in cli_rows) for i in range(3))
        cli_f = statistics.median(r[1] / r[0] for r in cli_rows)
        cli_g = statistics.median(r[2] / r[0] for r in cli_rows)
        print(
            f"whole process: curate ingest {cli_first:.2f} s, unchanged re-ingest {cli_same:.2f} s ({cli_f:.1%}), "
            f"one file edited {cli_one:.2f} s ({cli_g:.1%})"
        )


if __name__ == "__main__":
    main()
