"""The real kernel as the baseline of the surface verifier, measured on real units.

    python benchmarks/bench_inherited.py WORKSPACE [WORKSPACE ...] [--units N] [--max-chars C] [--seed S]

For each workspace (made by `curate ingest`), takes up to N units whose own kernel the checker
does not pass cleanly (it reports warnings, or errors), and writes for each one the reasoning a
faithful teacher would: a section that quotes one device function of the real kernel verbatim.
It then runs the surface verifier (`annotate.reasoning.SurfaceVerifier`) on

- the faithful reasoning: it must be accepted; findings that the real kernel also produces are
  recorded as `surface.inherited` (warnings);
- the same reasoning with one AscendC call in the quote misspelt: it must be rejected, because
  that finding is the reasoning's, not the kernel's.

Prints, per workspace, how many units were sampled, how many of their kernels the checker
rejects on their own (and in how many the quoted function holds one of those errors), the acceptance of faithful reasonings, how many carried inherited findings,
and the rejection of the misspelt ones; `--details` lists what a rejected faithful reasoning was
blamed for.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from annotate.checker.clangcheck import KernelChecker  # noqa: E402
from annotate.reasoning import SurfaceVerifier  # noqa: E402
from benchmarks.mutations import misspell_api, mutation_api_names  # noqa: E402
from schemas import KernelUnit  # noqa: E402
from schemas.arrow import from_rows  # noqa: E402
from schemas.ascendc.catalog import load_catalog  # noqa: E402
from schemas.cpp import mask_comments_and_literals  # noqa: E402
from schemas.verdicts import is_accepted  # noqa: E402

# A device function: `__aicore__ ... name(...) {` (its body is found by brace matching).
DEVICE_FUNCTION_RE = re.compile(r"__aicore__[^;{}()]*?\b\w+\s*\([^;{}]*\)\s*(?:const\s*)?\{")
MAX_QUOTE_LINES = 40


def device_functions(code: str) -> list[tuple[range, str]]:
    """Device functions of `code` of at most MAX_QUOTE_LINES lines: their 1-based line range and
    text (header and body)."""
    masked = mask_comments_and_literals(code)
    found: list[tuple[range, str]] = []
    for match in DEVICE_FUNCTION_RE.finditer(masked):
        depth, end = 0, -1
        for i in range(match.end() - 1, len(masked)):
            depth += {"{": 1, "}": -1}.get(masked[i], 0)
            if depth == 0:
                end = i + 1
                break
        start = masked.rfind("\n", 0, match.start()) + 1
        if end > 0 and code.count("\n", start, end) < MAX_QUOTE_LINES:
            first = code.count("\n", 0, start) + 1
            found.append((range(first, first + code.count("\n", start, end) + 1), code[start:end]))
    return found


def reasoning_quoting(code: str) -> str:
    return (
        "## Understanding\nThe kernel streams tiles through the vector unit.\n\n"
        "## API choices\nThe compute stage is written as follows.\n\n"
        f"```cpp\n{code}\n```\n"
    )


def measure(workspace: Path, units: int, max_chars: int, rng: random.Random, details: bool) -> dict[str, int]:
    rows = pl.read_parquet(workspace / "units.parquet").to_dicts()
    rng.shuffle(rows)
    checker = KernelChecker()
    verifier = SurfaceVerifier(checker=checker)
    names = mutation_api_names({e.name for e in load_catalog().entries if e.kind == "function"})
    counts = dict(
        sampled=0,
        kernel_rejected=0,
        quotes_kernel_error=0,
        accepted=0,
        inherited=0,
        mutants=0,
        mutants_rejected=0,
    )
    for unit in from_rows(KernelUnit, rows):
        if counts["sampled"] >= units:
            break
        if len(unit.code) > max_chars:
            continue
        kernel = verifier.kernel_result(unit)
        if not kernel.diagnostics:
            continue  # a clean kernel has nothing to inherit
        quotes = [(r, q) for r, q in device_functions(unit.code) if misspell_api(q, names, random.Random(0))]
        if not quotes:
            continue
        # the hard case first: a function on whose lines the kernel itself has findings
        name = Path(unit.path).name
        error_lines = {d.line for d in kernel.errors if d.path in ("", name)}
        finding_lines = error_lines or {d.line for d in kernel.diagnostics if d.path in ("", name)}
        hard = [(r, q) for r, q in quotes if finding_lines.intersection(r)]
        span, quote = rng.choice(hard or quotes)
        counts["quotes_kernel_error"] += bool(error_lines.intersection(span))
        counts["sampled"] += 1
        counts["kernel_rejected"] += not kernel.ok
        found = verifier.verify(unit, "", reasoning_quoting(quote))
        if is_accepted(found):
            counts["accepted"] += 1
            counts["inherited"] += any(d.check == "surface.inherited" for d in found)
        elif details:
            blamed = [d.message for d in found if d.severity == "error"]
            print(f"  REJECTED faithful {unit.path}: {blamed[:3]}")
        mutation = misspell_api(quote, names, rng)
        if mutation is not None:
            counts["mutants"] += 1
            rejected = not is_accepted(verifier.verify(unit, "", reasoning_quoting(mutation.text)))
            counts["mutants_rejected"] += rejected
            if details and not rejected:
                print(f"  UNDETECTED misspelling {unit.path}: {mutation.before} -> {mutation.after}")
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("workspaces", type=Path, nargs="+")
    parser.add_argument("--units", type=int, default=40, help="units sampled per workspace")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--max-chars", type=int, default=60_000, help="skip units with more code (slow to check)"
    )
    parser.add_argument("--details", action="store_true")
    args = parser.parse_args()
    print(
        "| workspace | units | kernel rejected on its own | quote holds a kernel error line "
        "| faithful accepted | with inherited findings | misspelt rejected |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for workspace in args.workspaces:
        c = measure(workspace, args.units, args.max_chars, random.Random(args.seed), args.details)
        n, m = max(c["sampled"], 1), max(c["mutants"], 1)
        print(
            f"| {workspace.name} | {c['sampled']} | {c['kernel_rejected']} | {c['quotes_kernel_error']} | "
            f"{c['accepted']} ({100 * c['accepted'] / n:.1f}%) | {c['inherited']} | "
            f"{c['mutants_rejected']}/{c['mutants']} ({100 * c['mutants_rejected'] / m:.1f}%) |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
