"""A kernel that only reduces a tensor along one dimension, and the reduction it performs.

Benchmarks have single-op tasks of a weak op (`sum_reduction_over_a_dimension`,
`max_reduction_over_a_dimension`): `sum`, `max`, `min` and `mean` are words every tiling uses
(`std::min(tile, rest)`, a running sum of lengths), so the word alone never claims such a task.
What does is a reduction the kernel performs, stated by AscendC's reduction API (`ReduceMax`,
`WholeReduceSum`, `BlockReduceMin`, `ReduceMean`), written out as a running compare
(`m = (v > m) ? v : m`) or named ("sum reduce over dim=1"), in a kernel that does nothing else: a softmax reduces too, but also
exponentiates, and a norm takes a square root.
"""

from __future__ import annotations

import re

# AscendC's reduction calls, by the op they perform.
_REDUCE_CALL = re.compile(r"\b(?:Whole|Block)?Reduce(Sum|Max|Min|Mean)\b")
# A reduction named as one (in a comment, a docstring or an identifier): "sum reduce over
# dim=1", "reduce min", `SumReductionDim1`, `reduce_max`.
_NAMED_REDUCTION = re.compile(
    r"(?:(?<![A-Za-z])(sum|max|min|mean)|(Sum|Max|Min|Mean))[ _-]?[Rr]educ(?:e|tion|ing)"
    r"|[Rr]educ(?:e|es|tion|ing)[ _-]?(?:(sum|max|min|mean)|(Sum|Max|Min|Mean))(?![a-z])"
)
# A running maximum or minimum: `m = (v > m) ? v : m;`, `best = v < best ? v : best;`.
_RUNNING_COMPARE = re.compile(
    r"\b(\w{1,64})\s*=\s*\(?\s*(\w{1,64})\s*([<>])=?\s*\1\s*\)?\s*\?\s*\2\s*:\s*\1\b"
)
# Ops a reduction kernel also shows without doing other work: index arithmetic and tiling
# (`add`, `mul`, `min`, `max`), and a mean's sum and scale (`sum`, `mean`, `avg_pool`, `div`).
REDUCTION_COMPANIONS = frozenset({"add", "mul", "min", "max", "sum", "mean", "avg_pool", "div"})
REDUCTION_OPS = frozenset({"sum", "max", "min", "mean"})


def performed_reductions(code: str) -> dict[str, str]:
    """The reductions (`sum`, `max`, `min`, `mean`) a kernel's code performs, each with the code
    that shows it: an API call, a running compare, or what its comments and names say."""
    found: dict[str, str] = {}
    hits = [
        *(_REDUCE_CALL.finditer(code) if "Reduce" in code else ()),
        *(_NAMED_REDUCTION.finditer(code) if "educ" in code else ()),
    ]
    for hit in hits:
        found.setdefault(next(op for op in hit.groups() if op).lower(), hit.group(0))
    for hit in _RUNNING_COMPARE.finditer(code) if "?" in code else ():
        found.setdefault("max" if hit.group(3) == ">" else "min", " ".join(hit.group(0).split()))
    return found


def is_reduction_task(words: list[str], required: frozenset[str]) -> bool:
    """A task named a reduction (`sum_reduction_over_a_dimension`) of one weak op."""
    return ("reduction" in words or "reduce" in words) and len(required) == 1 and required <= REDUCTION_OPS
