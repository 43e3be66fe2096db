"""How much of each unit the teacher sees: lines of code left out of the first-round prompts.

Builds the first-round prompt of every unit of a workspace within `max_unit_lines` with the kernel
task's own prompt function (no server), and counts the lines of code the prompt does not show.
With `--context-tokens N` it also counts the units the loop would leave out because their prompt
does not fit a teacher of that context (with `--max-tokens` for the answer).

    python benchmarks/prompt_coverage.py WORKSPACE [--style full|compact] [--context-tokens 65536]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from annotate.context import prompt_tokens
from annotate.tasks import Prompt
from annotate.tasks.kernel_reasoning import drop_licence_comments, prompt
from schemas import DEFAULT_MAX_UNIT_LINES, KernelUnit, oversized, read_records


def shown_lines(kernel_prompt: Prompt, unit: KernelUnit) -> tuple[int, int]:
    """(lines of the unit's code and host code, lines the prompt leaves out)."""
    total = sum(
        drop_licence_comments(code).count("\n") + 1 for code in (unit.code, unit.host_code) if code.strip()
    )
    return total, kernel_prompt.lines_left_out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--style", default="full", choices=("full", "compact"))
    parser.add_argument("--compact-code-chars", type=int, default=2400)
    parser.add_argument("--max-unit-lines", type=int, default=DEFAULT_MAX_UNIT_LINES)
    parser.add_argument("--context-tokens", type=int, default=0)
    parser.add_argument("--max-tokens", type=int, default=4096)
    args = parser.parse_args(argv)
    units = [
        u
        for u in read_records(args.workspace / "units.parquet", KernelUnit)
        if not oversized(u, args.max_unit_lines)
    ]
    lines_total = left_out = cut_units = no_fit = 0
    tokens: list[int] = []
    for unit in units:
        built = prompt(unit, args.style, "json_schema", args.compact_code_chars)
        total, missing = shown_lines(built, unit)
        lines_total += total
        left_out += missing
        cut_units += missing > 0
        need = prompt_tokens(built.messages)
        tokens.append(need)
        no_fit += bool(args.context_tokens) and need + args.max_tokens > args.context_tokens
    print(
        json.dumps(
            {
                "units": len(units),
                "style": args.style,
                "code_lines": lines_total,
                "lines_left_out": left_out,
                "units_cut": cut_units,
                "prompt_tokens_median": statistics.median(tokens) if tokens else 0,
                "prompt_tokens_max": max(tokens, default=0),
                "context_tokens": args.context_tokens,
                "units_not_fitting": no_fit,
            }
        )
    )


if __name__ == "__main__":
    main()
