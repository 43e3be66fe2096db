"""Acceptance and mutation-detection rates of `curate check-kernel` on real repositories.

    python benchmarks/bench_check_kernel.py REPO [REPO ...] [--sample N] [--mutants M] [--jobs 2]
                                            [--details] [--json rows.json]

Per repository:

- acceptance: the share of real entry files the checker passes. An entry file is a source
  (`.cpp .cc .asc .h .hpp`) that *defines* a `__global__ __aicore__` kernel (or `__global__
  __vector__`/`__cube__`, as Ascend950 SIMD samples write it; a declaration ending in `;` does not
  count), outside test folders (`tests/ut/...` only declare entries for unit
  tests) and build output;
- detection: the share of single-mutation copies of accepted files that it fails, for two
  mutations: one AscendC API name misspelt, and the last argument of one AscendC API call dropped.
  Dropped-argument detection is reported twice: over every mutant, and over the mutants where no
  overload of the API takes the new argument count (the others may be valid code). A mutation is
  applied to the entry file, or to the first repository-local header of the unit that calls an
  AscendC API when the entry itself calls none. Mutants are drawn from compiled code only: a
  site the preprocessor skips for the checked SoC (`#if 0`, another SoC's branch) or inside a
  macro that expands to nothing in a device build (`ASSERT(...)`) is an equivalent mutant (no
  compiler could reject it), and another site is drawn; so is an unqualified call of a function
  the unit defines itself (a repository's own `CeilDiv`), and a call qualified by a namespace that
  is not AscendC's (`std::max`, a kernel's own `tool::CeilDiv`), or a call in host code (`main()`):
  neither is an AscendC API call of the kernel;
- the most frequent error messages of rejected files (names and numbers folded).

`--sample N` checks a deterministic sample of N entry files per repository (all by default);
`--mutants M` mutates at most M of the accepted files per repository. Nothing is written into the
repositories: mutated text is passed to clang in memory.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import random
import re
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import clang.cindex as ci

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from annotate.checker.blocks import device_markers, in_host_function  # noqa: E402
from annotate.checker.clangcheck import CheckOptions, KernelChecker  # noqa: E402
from benchmarks.mutations import (  # noqa: E402
    _masked,
    _split_args,
    api_call_sites,
    drop_argument,
    misspell_api,
    mutation_api_names,
)
from schemas.ascendc import surface_include_dirs  # noqa: E402
from schemas.ascendc.catalog import load_catalog  # noqa: E402
from schemas.ascendc.includes import local_include_dirs, plan_includes, read_text  # noqa: E402
from schemas.cpp import mask_comments_and_literals  # noqa: E402

# A kernel definition: `__global__` and `__aicore__` (either order) in the declaration, then the
# parameter list, then the body's `{` (a `;` first means a declaration).
# a `__global__` definition: with `__aicore__`, or `__vector__`/`__cube__` (Ascend950 SIMD samples)
ENTRY_DEF_RE = re.compile(
    r"(?:__global__[^;{}]*__(?:aicore|vector|cube)__|__(?:aicore|vector|cube)__[^;{}]*__global__)"
    r"[^;{}]*?\w+\s*\([^;{}]*\)[^;{}]*\{"
)
SUFFIXES = {".cpp", ".cc", ".asc", ".h", ".hpp"}
EXCLUDED_DIRS = {"tests", "test", "ut", "st", "testcases", "build_out", "build", "output", "opgen", ".git"}
_checker: KernelChecker | None = None


def entry_files(repo: Path) -> list[Path]:
    """Files of `repo` that define a kernel entry, outside test folders and build output."""
    found = []
    for path in sorted(repo.rglob("*")):
        if path.suffix not in SUFFIXES or not path.is_file():
            continue
        if set(path.relative_to(repo).parts[:-1]) & EXCLUDED_DIRS:
            continue
        text = read_text(path)
        if "__global__" in text and ENTRY_DEF_RE.search(mask_comments_and_literals(text)):
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


class _RangeList(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(ci.SourceRange))]


# Macros whose arguments a device build never compiles (they expand to nothing).
_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(?:.*\\\n)*.*$", re.MULTILINE)
_NO_OP_MACRO_RE = re.compile(r"\b(?:ASSERT|ASCENDC_ASSERT|KERNEL_LOG|ASCENDC_DEBUG_ASSERT)\s*\(")


def dead_lines(checker: KernelChecker, entry: Path, target: Path) -> set[int]:
    """Lines of `target` no compiler sees when building `entry` for the checked SoC: what the
    preprocessor skips, and the arguments of macros that expand to nothing."""
    unit = checker._prepare(entry, CheckOptions(), {}, str(entry))
    tu = checker._parse(unit, ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
    lib = ci.conf.lib
    get_file = lib.clang_getFile
    get_file.restype, get_file.argtypes = ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_char_p]
    skipped = lib.clang_getSkippedRanges
    skipped.restype, skipped.argtypes = ctypes.POINTER(_RangeList), [ctypes.c_void_p, ctypes.c_void_p]
    dead: set[int] = set()
    handle = get_file(tu.obj, str(target).encode())
    if handle:
        ranges = skipped(tu.obj, handle)
        for i in range(ranges.contents.count):
            r = ranges.contents.ranges[i]
            dead.update(range(r.start.line, r.end.line + 1))
        lib.clang_disposeSourceRangeList(ranges)
    expanded = {c.spelling for c in tu.cursor.get_children() if c.kind == ci.CursorKind.MACRO_INSTANTIATION}
    code = _masked(read_text(target))
    for match in _DEFINE_RE.finditer(code):
        if match.group(1) not in expanded:  # the body of a macro nothing expands
            first = code.count("\n", 0, match.start()) + 1
            dead.update(range(first, first + match.group(0).count("\n") + 1))
    for match in _NO_OP_MACRO_RE.finditer(code):
        depth, end = 0, match.end() - 1
        for end in range(match.end() - 1, len(code)):
            depth += {"(": 1, ")": -1}.get(code[end], 0)
            if depth == 0:
                break
        first = code.count("\n", 0, match.start()) + 1
        dead.update(range(first, first + code.count("\n", match.start(), end) + 1))
    return dead


# a function definition's name: `... Name(params) [const] {`
_OWN_FUNCTION_RE = re.compile(
    r"\b(\w+)\s*\([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*\)\s*(?:const\s*)?(?:noexcept\s*)?\{"
)


def own_functions(path: Path) -> set[str]:
    """Names of the functions the unit (entry and repository headers) defines itself: an
    unqualified call of one of them (a repository's own one-argument `CeilDiv`) is not an
    AscendC call, so a mutant of it says nothing about the checker's knowledge of the API."""
    plan = plan_includes(path, local_include_dirs(path), surface_include_dirs())
    names: set[str] = set()
    for file in [path, *plan.local_files]:
        masked = mask_comments_and_literals(read_text(file))
        names |= {m.group(1) for m in _OWN_FUNCTION_RE.finditer(masked)}
    return names - {"if", "for", "while", "switch", "catch", "return", "sizeof"}


def _ascendc_site(
    text: str, mutation: Any, checker: KernelChecker, own: frozenset[str] | set[str] = frozenset()
) -> bool:
    """Whether the mutated call is an AscendC API call in device code: unqualified or qualified by
    an AscendC namespace, and not inside a host function (main(), file readers, launchers); an
    unqualified call of a function the unit defines itself is the unit's, not AscendC's."""
    if in_host_function(text, mutation.line, device_markers({"": text})):
        return False
    lines = text.splitlines()
    line = lines[mutation.line - 1] if 0 < mutation.line <= len(lines) else ""
    names = {mutation.before} if mutation.kind == "misspell" else checker_names(checker)
    scopes = {part for e in checker.catalog.entries for part in e.qualified.split("::")[:-1]}
    for match in re.finditer(r"((?:\w+::)*)(\w+)\s*(?:<[^;(){}]*>)?\s*\(", line):
        if match.group(2) not in names:
            continue
        qualifiers = [q for q in match.group(1).split("::") if q]
        if (not qualifiers and match.group(2) not in own) or (qualifiers and qualifiers[-1] in scopes):
            return True
    return False


def checker_names(checker: KernelChecker) -> set[str]:
    return mutation_api_names({e.name for e in checker.catalog.entries if e.kind == "function"})


def _arity_admitted(checker: KernelChecker, mutated: str, line: int) -> bool:
    """Whether some catalog overload of the mutated call still accepts its new argument count
    (then the mutant may well be valid C++: dropping a defaulted argument changes nothing)."""
    for name, start, open_pos, close in api_call_sites(mutated, checker_names(checker)):
        if mutated.count("\n", 0, start) + 1 != line:
            continue
        n = len(_split_args(_masked(mutated), open_pos, close))
        overloads = [o for e in checker.catalog.by_name(name) for o in e.overloads]
        return any(o.min_args <= n <= o.max_args for o in overloads) or not overloads
    return True


def evaluate(job: tuple[str, bool]) -> dict[str, Any]:
    """Check one entry file, and (when asked and it passes) one mutant of each kind."""
    path_str, mutate = job
    global _checker
    if _checker is None:
        _checker = KernelChecker()
    checker = _checker
    path = Path(path_str)
    started = time.perf_counter()
    original = checker.check_file(path, CheckOptions())
    row: dict[str, Any] = {
        "path": path_str,
        "ok": original.ok,
        "seconds": time.perf_counter() - started,
        "errors": [f"{d.path}:{d.line}: {d.message} [{d.check}]" for d in original.errors][:5],
        "messages": sorted({d.message for d in original.errors}),
        "warnings": sum(d.severity == "warning" for d in original.diagnostics),
        "mutations": {},
    }
    if not original.ok or not mutate:
        return row
    names = checker_names(checker)
    target = _target(path, names)
    if target is None:
        return row
    rng = random.Random(path_str)
    text = read_text(target)
    dead = dead_lines(checker, path, target)
    own = own_functions(path)
    for kind, make in (("misspell", misspell_api), ("drop_arg", drop_argument)):
        for _ in range(10):  # draw again while the site is in code no compiler sees
            mutation = make(text, names, rng)
            if mutation is None or (
                mutation.line not in dead and _ascendc_site(text, mutation, checker, own)
            ):
                break
        else:
            mutation = None  # ten draws, none at an AscendC call in compiled code
        if mutation is None:
            continue
        result = checker.check_file(path, CheckOptions(), overrides={target: mutation.text})
        row["mutations"][kind] = {
            "certain": kind == "misspell" or not _arity_admitted(checker, mutation.text, mutation.line),
            "detected": not result.ok,
            "on_line": any(d.line == mutation.line for d in result.errors),
            "line": mutation.line,
            "file": str(target),
            "change": f"{mutation.before} -> {mutation.after}",
            "errors": [f"{d.line}: {d.message} [{d.check}]" for d in result.errors][:3],
        }
    return row


_FOLD_RE = re.compile(r"'[^']*'|\b\d+\b")


def fold(message: str) -> str:
    """A message with its quoted names and numbers folded, so that one cause counts once."""
    return _FOLD_RE.sub(lambda m: "'…'" if m.group().startswith("'") else "N", message)


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


def summarize(rows: list[dict[str, Any]], top: int = 5) -> dict[str, Any]:
    accepted = [r for r in rows if r["ok"]]
    summary: dict[str, Any] = {
        "entries": len(rows),
        "accepted": len(accepted),
        "acceptance_rate": _rate(len(accepted), len(rows)),
        "median_seconds_per_file": statistics.median(r["seconds"] for r in rows) if rows else 0.0,
    }
    for kind in ("misspell", "drop_arg"):
        muts = [r["mutations"][kind] for r in accepted if kind in r["mutations"]]
        certain = [m for m in muts if m["certain"]]
        summary[kind] = {
            "mutants": len(muts),
            "detected": sum(m["detected"] for m in muts),
            "detection_rate": _rate(sum(m["detected"] for m in muts), len(muts)),
            "on_line_rate": _rate(sum(m["on_line"] for m in muts), len(muts)),
            "certain_mutants": len(certain),
            "certain_detected": sum(m["detected"] for m in certain),
            "certain_detection_rate": _rate(sum(m["detected"] for m in certain), len(certain)),
        }
    causes: Counter[str] = Counter()
    for r in rows:
        if not r["ok"]:
            causes.update({fold(m) for m in r["messages"]})  # a cause counts once per file
    summary["top_diagnostics"] = causes.most_common(top)
    return summary


def _print_repo(name: str, s: dict[str, Any]) -> None:
    print(f"== {name}")
    print(f"entry files:        {s['entries']}")
    print(f"accepted:           {s['accepted']} ({s['acceptance_rate']:.1%})")
    m, d = s["misspell"], s["drop_arg"]
    print(f"misspelt API:       {m['detected']}/{m['mutants']} detected ({m['detection_rate']:.1%})")
    print(f"dropped argument:   {d['detected']}/{d['mutants']} detected ({d['detection_rate']:.1%})")
    print(
        f"  count invalid:    {d['certain_detected']}/{d['certain_mutants']} detected "
        f"({d['certain_detection_rate']:.1%}) where no overload takes the new argument count"
    )
    for message, count in s["top_diagnostics"]:
        print(f"  {count:4d} files: {message[:150]}")


def _print_table(summaries: dict[str, dict[str, Any]]) -> None:
    print()
    print("| repository | entry files | accepted | misspelt API | dropped arg (count invalid) |")
    print("|---|---:|---:|---:|---:|")
    for name, s in summaries.items():
        m, d = s["misspell"], s["drop_arg"]
        print(
            f"| {name} | {s['entries']} | {s['acceptance_rate']:.1%} | "
            f"{m['detection_rate']:.1%} ({m['mutants']}) | "
            f"{d['certain_detection_rate']:.1%} ({d['certain_mutants']}) |"
        )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("repos", type=Path, nargs="+")
    parser.add_argument("--sample", type=int, default=0, help="check N entry files per repository")
    parser.add_argument("--mutants", type=int, default=150, help="mutate at most M files per repository")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--details", action="store_true", help="list rejected files and undetected mutants")
    parser.add_argument("--json", type=Path, help="write every row to this JSON file")
    args = parser.parse_args()
    for repo in args.repos:
        if not repo.is_dir():
            print(f"error: {repo} is not a directory", file=sys.stderr)
            return 2
    load_catalog()
    summaries: dict[str, dict[str, Any]] = {}
    all_rows: dict[str, list[dict[str, Any]]] = {}
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for repo in args.repos:
            entries = entry_files(repo)
            rng = random.Random(repo.name)
            if args.sample and len(entries) > args.sample:
                entries = sorted(rng.sample(entries, args.sample))
            mutated = set(rng.sample(entries, min(args.mutants, len(entries))))
            jobs = [(str(p), p in mutated) for p in entries]
            rows = list(pool.map(evaluate, jobs, chunksize=2))
            all_rows[repo.name] = rows
            summaries[repo.name] = summarize(rows)
            if args.details:
                for r in rows:
                    if not r["ok"]:
                        print(f"REJECTED {r['path']}")
                        for e in r["errors"]:
                            print(f"    {e}")
                for r in rows:
                    for kind, m in r["mutations"].items():
                        if not m["detected"] and m["certain"]:
                            print(f"UNDETECTED {kind} {r['path']} -> {m['file']}:{m['line']} ({m['change']})")
            _print_repo(repo.name, summaries[repo.name])
            sys.stdout.flush()
    _print_table(summaries)
    print(f"wall {time.perf_counter() - started:.0f} s with {args.jobs} jobs")
    if args.json:
        args.json.write_text(json.dumps({"summaries": summaries, "rows": all_rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
