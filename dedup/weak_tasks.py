"""Single-op tasks of a weak op, claimed by the form of a kernel that does that op and nothing else.

Benchmarks have single-op tasks whose op is a word every kernel uses: reducing along a
dimension (`sum_reduction_over_a_dimension`, `max_...`: `std::min(tile, rest)` and a running
sum of lengths are in every tiling) and broadcasting (`clamp_broadcast`, `max_broadcast`,
`power_broadcast`). The word alone never claims such a task. What does is the form the task
names, in a kernel that does nothing else (a softmax reduces too, but also exponentiates; a
norm takes a square root):

- a reduction the kernel performs: AscendC's reduction API (`ReduceMax`, `WholeReduceSum`,
  `BlockReduceMin`, `ReduceMean`), a running compare (`m = (v > m) ? v : m`), or a reduction
  it names ("sum reduce over dim=1", `SumReductionDim1`);
- a broadcast it names (`broadcast_tensors`, "Broadcast clamp", AscendC's `Broadcast`) beside
  the op;
- one arithmetic op (`add_bias_broadcast`, `division_broadcast`, `matrix_scalar_multiplication`:
  tasks whose reference does that and nothing else) done by AscendC's vector calls of that op
  only (`Adds`, `Div`): a renamed row no longer says "broadcast", its arithmetic remains.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

# AscendC's reduction calls, by the op they perform.
REDUCE_CALL = re.compile(r"\b(?:Whole|Block)?Reduce(Sum|Max|Min|Mean)\b")
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
# A running sum of values read one by one: `sum += xGm.GetValue(off);` (a product summed is a
# dot product, no reduction of one tensor).
_RUNNING_SUM = re.compile(
    r"\b\w{0,32}(?:sum|Sum|acc|Acc)\w{0,32}\s*\+=\s*\w{1,64}\.GetValue\([^;()]{0,80}\)\s*;"
)
_BROADCAST = re.compile(r"(?i)broad_?cast")
# The AscendC calls that do a broadcast task's op elementwise (read with `_EPILOGUE_CALL`): a
# bare word ("max", a tile's `std::max`) is no such op.
_ELEMENTWISE_CALLS = frozenset(
    {"Max", "Maxs", "Min", "Mins", "ClampMax", "ClampMin", "Pow", "Power", "Exp", "Log", "Ln"}
)

# A call's opening after its name: template arguments allowed, the spaces around them bounded (a
# name before 100 KB of spaces, unbounded on both sides of the optional group, was a square).
CALL_OPENING = r"\s{0,8}(?:<[^<>;()]{0,64}>)?\s{0,8}\("
# AscendC's vector arithmetic, by the op it does (`Adds`: a tensor and a scalar).
_ARITHMETIC_CALL = re.compile(r"\b((Add|Sub|Mul|Div)s?)" + CALL_OPENING)


@dataclass(frozen=True, slots=True)
class WeakForm:
    """A form a task's name says (its `task_words`: `reduction`; none for ARITHMETIC, whose tasks
    are known by what their reference does), the weak ops its tasks do, and
    the ops a kernel of that form shows without doing other work (index arithmetic and tiling:
    `add`, `mul`, `min`, `max`; a mean's sum and scale; a power's exp and log)."""

    task_words: frozenset[str]
    ops: frozenset[str]
    companions: frozenset[str]


REDUCTION = WeakForm(
    frozenset({"reduction", "reduce"}),
    frozenset({"sum", "max", "min", "mean"}),
    frozenset({"add", "mul", "min", "max", "sum", "mean", "avg_pool", "div"}),
)
BROADCAST = WeakForm(
    frozenset({"broadcast"}),
    frozenset({"clamp", "max", "min", "pow"}),
    frozenset({"add", "mul", "sub", "div", "min", "max", "clamp", "pow", "exp", "log"}),
)
ARITHMETIC = WeakForm(
    frozenset(),
    frozenset({"add", "sub", "mul", "div"}),
    frozenset({"add", "sub", "mul", "div", "min", "max"}),
)
FORMS = (REDUCTION, BROADCAST)


def form_of_task(words: list[str], required: frozenset[str], ops: list[str]) -> tuple[WeakForm, str] | None:
    """The form a task of one weak op names (`sum_reduction_over_a_dimension`), or the
    arithmetic its reference does and requires no op for (`add_bias_broadcast`), with the op."""
    if not required and ops and set(ops) <= ARITHMETIC.ops:
        return ARITHMETIC, ops[0]
    if len(required) != 1:
        return None
    form = next((f for f in FORMS if f.task_words & set(words) and required <= f.ops), None)
    return None if form is None else (form, next(iter(required)))


def performed_reductions(code: str) -> dict[str, str]:
    """The reductions (`sum`, `max`, `min`, `mean`) a kernel's code performs, each with the code
    that shows it: an API call, a running compare, or what its comments and names say."""
    return dict(_reductions(code))


# One entry: the pre-test (`may_show_a_form`) and the match (`performed_forms`) ask about the same
# row one after the other; a str caches its hash, so the lookup costs nothing.
@functools.lru_cache(maxsize=1)
def _reductions(code: str) -> tuple[tuple[str, str], ...]:
    found: dict[str, str] = {}
    hits = [
        *(REDUCE_CALL.finditer(code) if "Reduce" in code else ()),
        *(_NAMED_REDUCTION.finditer(code) if "educ" in code else ()),
    ]
    for hit in hits:
        found.setdefault(next(op for op in hit.groups() if op).lower(), hit.group(0))
    for hit in _RUNNING_COMPARE.finditer(code) if "?" in code else ():
        found.setdefault("max" if hit.group(3) == ">" else "min", " ".join(hit.group(0).split()))
    if "+=" in code and (hit := _RUNNING_SUM.search(code)) is not None:
        found.setdefault("sum", hit.group(0))
    return tuple(found.items())


def performed_forms(code: str, ops: dict[str, str]) -> dict[WeakForm, dict[str, str]]:
    """For each form the code shows, the weak ops it does in that form, with the code that shows
    each (`ops`: the canonical ops the row shows, with the word that showed each)."""
    found: dict[WeakForm, dict[str, str]] = {}
    if reductions := performed_reductions(code):
        if "mean" in ops and reductions.keys() & {"sum", "mean"}:  # a sum, then scaled by the count
            shown = reductions.pop("sum", "")
            reductions["mean"] = reductions.get("mean") or shown
        found[REDUCTION] = reductions
    broadcast = _BROADCAST.search(code)
    if broadcast is not None and (elementwise := elementwise_ops(code)):
        found[BROADCAST] = {op: f"{call} after {broadcast.group(0)}" for op, call in elementwise.items()}
    if arithmetic := arithmetic_op(code):
        found[ARITHMETIC] = arithmetic
    return found


def arithmetic_op(code: str) -> dict[str, str]:
    """The one arithmetic op a kernel's AscendC vector calls do (`{"add": "Adds"}`), or {} when
    they do none or several (a bias added, then scaled, is some other task)."""
    return dict(_arithmetic(code))


@functools.lru_cache(maxsize=1)  # as `_reductions`: the pre-test and the match ask in turn
def _arithmetic(code: str) -> tuple[tuple[str, str], ...]:
    calls = {(call, op.lower()) for call, op in _ARITHMETIC_CALL.findall(code)}
    ops = {op for _, op in calls}
    return ((ops.pop(), ", ".join(sorted(call for call, _ in calls))),) if len(ops) == 1 else ()


def elementwise_ops(code: str) -> dict[str, str]:
    """The broadcast tasks' ops (`max`, `min`, `clamp`, `pow`) the code's AscendC calls do,
    each with the calls that do it: a clamp is a max and a min, a power an exp of a log."""
    calls = {hit.group(1) for hit in _EPILOGUE_CALL.finditer(code)} & _ELEMENTWISE_CALLS
    highs, lows = calls & {"Max", "Maxs", "ClampMin"}, calls & {"Min", "Mins", "ClampMax"}
    found = {
        op: min(side) for op, side in (("max", highs - {"ClampMin"}), ("min", lows - {"ClampMax"})) if side
    }
    if highs and lows:  # a clamp: its max and min are its steps, not ops of their own
        found = {"clamp": f"{min(highs)} and {min(lows)}"}
    if calls & {"Pow", "Power"}:
        found["pow"] = min(calls & {"Pow", "Power"})
    elif "Exp" in calls and calls & {"Log", "Ln"}:
        found["pow"] = f"Exp of {min(calls & {'Log', 'Ln'})}"
    return found


# AscendC vector calls that do a step of their own after (or instead of) a convolution's or a
# matmul's multiply-accumulate (`Add`, `Mul`, `Muls`, `Duplicate` do that accumulation, a bias or
# a fill: none of them is here), by the op each does.
_EPILOGUE_OP = {
    "Max": "max",
    "Maxs": "max",
    "Min": "min",
    "Mins": "min",
    "Sub": "sub",
    "Subs": "sub",
    "Div": "div",
    "Exp": "exp",
    "Ln": "log",
    "Log": "log",
    "Tanh": "tanh",
    "Sigmoid": "sigmoid",
    "Relu": "relu",
    "LeakyRelu": "leaky_relu",
    "Abs": "abs",
    "Sqrt": "sqrt",
    "Rsqrt": "sqrt",
    "Gelu": "gelu",
    "FasterGelu": "gelu",
    "Silu": "swish",
    "Swish": "swish",
    "Softmax": "softmax",
    "SoftMax": "softmax",
    "ClampMax": "clamp",
    "ClampMin": "clamp",
    "Reciprocal": "div",
    "Power": "pow",
    "Pow": "pow",
}
_EPILOGUE_CALL = re.compile(
    r"\b(" + "|".join(sorted(_EPILOGUE_OP, key=len, reverse=True)) + ")" + CALL_OPENING
)


@functools.lru_cache(maxsize=1)
def epilogue_ops(code: str) -> frozenset[str]:
    """The ops a kernel's AscendC vector calls do beyond a multiply-accumulate (`_EPILOGUE_CALL`):
    a row that calls `Mins` and `Div` does more than a plain convolution."""
    return frozenset(_EPILOGUE_OP[hit.group(1)] for hit in _EPILOGUE_CALL.finditer(code))


def may_show_a_form(code: str) -> bool:
    """Whether the code shows a reduction or a broadcast (the pre-test of a row that shows no
    strong op; arithmetic is in most kernels: `dedup.tasks._may_match` asks for a word too)."""
    return bool(_reductions(code)) or _BROADCAST.search(code) is not None
