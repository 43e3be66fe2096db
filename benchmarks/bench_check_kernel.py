"""Acceptance and mutation-detection rates of `curate check-kernel` on a real repository.

    python benchmarks/bench_check_kernel.py PATH/TO/ops-math [--limit N] [--jobs 2] [--details]

Acceptance: the share of op_kernel entry files (files under an `op_kernel/` directory, outside
test folders, that define a `__global__ __aicore__` kernel) the checker passes. Detection: the
share of single-mutation copies of the accepted files that it fails, for two mutations: one
AscendC API name misspelt, and the last argument of one AscendC API call dropped. A mutation is
applied to the entry file, or to the first repository-local header of the unit that calls an
AscendC API when the entry itself calls none. "On the line" counts failures with an error on the
mutated line. Nothing is written into the repository: mutated text is passed to clang in memory.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from annotate.checker.catalog import load_catalog  # noqa: E402
from annotate.checker.clangcheck import CheckOptions, KernelChecker  # noqa: E402
from annotate.checker.includes import local_include_dirs, plan_includes, read_text  # noqa: E402
from annotate.checker.toolchain import surface_include_dirs  # noqa: E402
from tests.helpers.mutate import (  # noqa: E402
    api_call_sites,
    drop_argument,
    misspell_api,
    mutation_api_names,
)

ENTRY_RE = re.compile(r"__global__[\s\w()\"]*__aicore__|__aicore__[\s\w()\"]*__global__")
SUFFIXES = {".cpp", ".cc", ".asc", ".h", ".hpp"}
_checker: KernelChecker | None = None


def entry_files(repo: Path) -> list[Path]:
    found = []
    for path in sorted(repo.rglob("*")):
        parts = set(path.parts)
        if path.suffix not in SUFFIXES or "op_kernel" not in parts or parts & {"tests", "test", "ut", "st"}:
            continue
        if path.is_file() and ENTRY_RE.search(read_text(path)):
            found.append(path)
    return found


def _target(path: Path, names: set[str]) -> Path | None:
    """The entry itself, or the first unit header that calls an AscendC API."""
    if api_call_sites(read_text(path), names):
        return path
    plan = plan_includes(path, local_include_dirs(path), surface_include_dirs())
    for header in plan.local_files:
        if api_call_sites(read_text(header), names):
            return header
    return None


def _arity_admitted(checker: KernelChecker, text: str, mutation) -> bool:
    """Whether some catalog overload of the mutated call still accepts its new argument count
    (then the mutant may well be valid C++: dropping a defaulted argument changes nothing)."""
    for name, start, open_pos, close in api_call_sites(mutation.text, checker_names(checker)):
        if mutation.text.count("\n", 0, start) + 1 != mutation.line:
            continue
        n = len(_args(mutation.text, open_pos, close))
        overloads = [o for e in checker.catalog.by_name(name) for o in e.overloads]
        return any(o.min_args <= n <= o.max_args for o in overloads) or not overloads
    return True


def checker_names(checker: KernelChecker) -> set[str]:
    return mutation_api_names({e.name for e in checker.catalog.entries if e.kind == "function"})


def _args(text: str, open_pos: int, close: int) -> list[tuple[int, int]]:
    from tests.helpers.mutate import _masked, _split_args

    return _split_args(_masked(text), open_pos, close)


def evaluate(path_str: str) -> dict:
    global _checker
    if _checker is None:
        _checker = KernelChecker()
    checker = _checker
    path = Path(path_str)
    names = mutation_api_names({e.name for e in checker.catalog.entries if e.kind == "function"})
    started = time.perf_counter()
    original = checker.check_file(path, CheckOptions())
    seconds = time.perf_counter() - started
    row: dict = {
        "path": path_str,
        "ok": original.ok,
        "seconds": seconds,
        "errors": [f"{d.path}:{d.line}: {d.message}" for d in original.errors][:3],
        "warnings": sum(d.severity == "warning" for d in original.diagnostics),
        "mutations": {},
    }
    if not original.ok:
        return row
    target = _target(path, names)
    if target is None:
        return row
    rng = random.Random(path_str)
    text = read_text(target)
    for kind, make in (("misspell", misspell_api), ("drop_arg", drop_argument)):
        mutation = make(text, names, rng)
        if mutation is None:
            continue
        result = checker.check_file(path, CheckOptions(), overrides={target: mutation.text})
        on_line = any(d.line == mutation.line for d in result.errors)
        certain = kind == "misspell" or not _arity_admitted(checker, text, mutation)
        row["mutations"][kind] = {
            "certain": certain,
            "detected": not result.ok,
            "on_line": on_line,
            "line": mutation.line,
            "file": str(target),
            "change": f"{mutation.before} -> {mutation.after}",
        }
    return row


def summarize(rows: list[dict]) -> dict:
    accepted = [r for r in rows if r["ok"]]
    summary: dict = {
        "entries": len(rows),
        "accepted": len(accepted),
        "acceptance_rate": len(accepted) / len(rows) if rows else 0.0,
        "median_seconds_per_file": statistics.median(r["seconds"] for r in rows) if rows else 0.0,
    }
    for kind in ("misspell", "drop_arg"):
        muts = [r["mutations"][kind] for r in accepted if kind in r["mutations"]]
        certain = [m for m in muts if m["certain"]]
        summary[kind] = {
            "mutants": len(muts),
            "detected": sum(m["detected"] for m in muts),
            "detection_rate": sum(m["detected"] for m in muts) / len(muts) if muts else 0.0,
            "on_line_rate": sum(m["on_line"] for m in muts) / len(muts) if muts else 0.0,
            "certain_mutants": len(certain),
            "certain_detected": sum(m["detected"] for m in certain),
            "certain_detection_rate": sum(m["detected"] for m in certain) / len(certain) if certain else 0.0,
        }
    return summary


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("repo", type=Path)
    parser.add_argument("--limit", type=int, default=0, help="check only the first N entry files")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--details", action="store_true", help="list rejected files and undetected mutants")
    parser.add_argument("--json", type=Path, help="write every row to this JSON file")
    args = parser.parse_args()
    if not args.repo.is_dir():
        print(f"error: {args.repo} is not a directory", file=sys.stderr)
        return 2
    load_catalog()
    entries = entry_files(args.repo)
    if args.limit:
        entries = entries[: args.limit]
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        rows = list(pool.map(evaluate, [str(p) for p in entries], chunksize=4))
    wall = time.perf_counter() - started
    summary = summarize(rows)
    summary["wall_seconds"] = wall
    if args.json:
        args.json.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    if args.details:
        for r in rows:
            if not r["ok"]:
                print(f"REJECTED {r['path']}")
                for e in r["errors"]:
                    print(f"    {e}")
        for r in rows:
            for kind, m in r["mutations"].items():
                if not m["detected"]:
                    print(f"UNDETECTED {kind} {m['file']}:{m['line']} ({m['change']})")
    print(f"entry files:        {summary['entries']}")
    print(f"accepted:           {summary['accepted']} ({summary['acceptance_rate']:.1%})")
    for kind, label in (("misspell", "misspelt API"), ("drop_arg", "dropped argument")):
        s = summary[kind]
        print(
            f"{label + ':':<19} {s['detected']}/{s['mutants']} detected ({s['detection_rate']:.1%}; "
            f"error on the mutated line {s['on_line_rate']:.1%})"
        )
        if kind == "drop_arg":
            print(
                f"{'  count invalid:':<19} {s['certain_detected']}/{s['certain_mutants']} detected "
                f"({s['certain_detection_rate']:.1%}) where no overload takes the new argument count"
            )
    print(
        f"median per file:    {summary['median_seconds_per_file']:.2f} s; wall {wall:.0f} s with {args.jobs} jobs"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
