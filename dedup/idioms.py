"""Ops a kernel writes out by hand, recognised by the shape of the code that computes them.

A solution whose names were changed still computes its task. Where it calls no AscendC API
named after an op and no word says it, the code shape does: `if (v < 0.0f) v = 0.0f;` is a
relu, `v >= 0.0f ? v : v * slope` a leaky relu, `1.0f / (1.0f + expf(-v))` a sigmoid, the
constant 0.044715 a GELU. Each idiom is a regular expression behind a literal the text must
hold (a cheap test that skips the regex on most rows).

Some shapes also serve other ends: a zero clamp guards a variance before its square root, a
window's reciprocal scales any sum. Their ops are `incidental`: they complete a fused task whose
other ops the row shows (`conv2d_relu_bias_add`), never claim a single-op task alone, and never
count as work beyond a task. Each idiom was kept for what it does on the dev split (README
"Task-level leaks").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ZERO = r"0\.0*[fF]?(?![\w.])"  # a float zero (`0.0f`, `0.f`, `0.0`): an int 0 clamps an index
_ONE = r"1(?:\.0*)?[fF]?"
_EXP = r"(?:std::|AscendC::)?exp\w*\s*\("
# An operand: a word of at most 64 characters, tried only where a word starts. `(\w+)` alone is
# tried at every character of a long identifier, each try running to its end: a hostile row of
# one 100 KB word took 75 s per pattern.
_VAR = r"\b(\w{1,64})"
# An operand an activation may clamp at zero: not a variance (`var`, `batchVariance`), which a norm
# clamps against rounding (`if (var < 0.0f) var = 0.0f;` is no relu).
_ACTIVATED = r"\b(?!\w{0,56}(?:[vV]ar|[vV]ariance)\b)(\w{1,64})"
_NAME = r"\b(?=\w{1,64}\b)\w*?"  # the start of a word of at most 64 characters
# AscendC vector calls: a call's opening (template arguments allowed), and the way from one call of
# a chain to the next: at most two statements between (a barrier, a Duplicate of a constant), and
# comments or a namespace before the next call's name
# (Spaces around the template arguments are bounded: unbounded on both sides of an optional group,
# one call name before 100 KB of spaces took 18 s.)
_CALL = r"\s{0,8}(?:<[^<>;]{0,64}>)?\s{0,8}\("
# The words an index tensor is named by (`indices`, `gatherIdx`, `token_ids`).
_INDEX_WORD = r"(?:[iI]ndex|[iI]ndices|[iI]dx|[iI]ds)"
# an index tensor given to the kernel: a kernel parameter, an op input or a host tensor so named
INDEX_INPUT = re.compile(
    rf'(?:GM_ADDR|Input\("|"name"\s{{0,8}}:\s{{0,8}}"|Tensor\s{{0,8}}&)\s{{0,8}}\w{{0,32}}(?:{_INDEX_WORD}|INDEX|IDX)\w{{0,16}}\b'
)
# An index tensor's element (`indices[i]`, `idx[b][j]`, `index[r, k]`) and the name it goes by.
_INDEX_TENSOR = rf"\b\w{{0,16}}{_INDEX_WORD}\b"
_INDEXED = rf"{_INDEX_TENSOR}\s{{0,4}}\[[^\[\]=;\n]{{1,40}}\](?:\s{{0,4}}\[[^\[\]=;\n]{{1,40}}\])?"
_STEPS = r"(?:[^;]{0,200};){0,2}?[^;]{0,200}?\b"
# the next call of a chain: a barrier at most between, and a line's comment after each statement
_COMMENT_TAIL = r"(?://[^\n]{0,200}\n\s{0,64})?"
_NEXT = (
    rf"\s{{0,64}}{_COMMENT_TAIL}(?:(?:AscendC::)?PipeBarrier<\w{{1,16}}>\(\)\s{{0,8}};\s{{0,64}}{_COMMENT_TAIL})?"
    r"(?:AscendC::)?"
)
_ADD_ONE = (
    rf"(?:Adds{_CALL}[^;]{{0,400}}?,\s*(?:\(\s*\w{{1,64}}\s*\)\s*)?\(?1(?:\.0*)?[fF]?\s*\)?\s*,[^;]{{0,128}}"
    rf"|Add{_CALL}[^;]{{0,400}});"
)
_SOFTPLUS_CALLS = rf"\bExp{_CALL}[^;]{{0,400}};{_STEPS}{_ADD_ONE}{_STEPS}Log{_CALL}"
_TANH_CALLS = (
    rf"\bMuls{_CALL}[^;]{{0,400}}?,\s*-?\s*2(?:\.0*)?[fF]?\s*,[^;]{{0,128}};{_STEPS}Exp{_CALL}[^;]{{0,400}};"
    r"(?:[^;]{0,200};){0,3}?[^;]{0,200}?\bDiv\b"
)
_MAX_WORD = r"(?:this->)?\w{0,64}[mM]ax\w{0,64}"
_EXP_LESS_MAX = (
    rf"\b[eE]xp\w{{0,16}}\s*\(\s*\w{{1,64}}\s*-\s*{_MAX_WORD}\s*\)"
    rf"|\bAdds{_CALL}[^;]{{0,400}}?,\s*-\s*(?:\(\s*\w{{1,64}}\s*\)\s*)?\(?\s*{_MAX_WORD}[^;]{{0,128}};{_STEPS}Exp{_CALL}"
    rf"|\bDuplicate{_CALL}[^;]{{0,400}}?{_MAX_WORD}[^;]{{0,128}};{_STEPS}Sub{_CALL}[^;]{{0,400}};{_STEPS}Exp{_CALL}"
)
_LOG_AFTER_ADD = rf"Log{_CALL}"
# The constants of a hard sigmoid, as literals or as named constants (`c3`, `kSix`, `inv6`)
_THREE = r"(?:3(?:\.0*)?[fF]?|\w{0,12}(?:3|[tT]hree|THREE)\w{0,12})"
_SIX = r"(?:6(?:\.0*)?[fF]?|\w{0,12}(?:6|[sS]ix|SIX)\w{0,12})"
_SIXTH = r"[^,;]{0,40}?(?:1(?:\.0*)?[fF]?\s*/\s*6|0\.1666|[sS]ixth|SIXTH|[iI]nv_?(?:6|[sS]ix))[^,;]{0,40}"
_HALF = r"(?:0\.50*[fF]?|\w{0,12}(?:[hH]alf|HALF)\w{0,12})"
# a variable that holds a position: `idx`, `bestIndex`, `argPos`
_INDEX_NAME = r"\b\w{0,32}?(?:[iI]dx|[iI]ndex|[pP]os|[aA]rg)\w{0,32}"


# A running compare, `m = (v > m) ? v : m` (`cmp` ">": a maximum; "<": a minimum)
def _running(cmp: str) -> str:
    return rf"{_VAR}\s*=\s*\(?\s*{_VAR}\s*{cmp}=?\s*\1\s*\)?\s*\?\s*\2\s*:\s*\1\b"


# values centred on their mean: a `Sub`, `x - mean`, an `Adds` of the negated mean (`-m`, `-mu`,
# `negMean`), or said ("the mean subtraction")
_CENTRED = (
    rf"(?:\bSub{_CALL}|-\s*(?:this->)?\w{{0,64}}[mM]ean\b|\b[nN]eg_?[mM]ean|\bAdds{_CALL}[^;]{{0,200}}?,\s*-\s*(?:m|mu|mean)\s*,"
    r"|\bmean\s+subtraction\b|\bsubtract(?:s|ing)?\s+the\s+mean\b)"
)
# what a row's moments are read by first (a mean squared and taken off)
_MOMENTS_LEAD = r"-\s*(?:this->)?\w{0,64}[mM]ean\w{0,64}\s*\*"
# words of other norms' statistics: a group's, the batch's
_GROUPS = r"\w{0,32}[gG]roups?\w{0,32}"
_OVER_BATCH = r"over\s(?:the\s)?batch"
# a variance from the first two moments: `ex2 - mean * mean`, `sumSq / n - mean * mean`
_MOMENTS = (
    r"(?:\b\w{1,64}|\))\s*-\s*(?:this->)?\b(?P<mean>\w{0,64}[mM]ean\w{0,64})\s*\*\s*(?:this->)?(?P=mean)\b"
)


@dataclass(frozen=True, slots=True)
class Idiom:
    op: str
    screen: str  # a literal the text must hold for the pattern to be tried
    pattern: re.Pattern[str]
    incidental: bool  # the shape also serves other ends (see the module's docstring)
    # A part of the shape the text must match before the pattern is tried, led by a literal (the
    # engine skips to that literal in C) where the pattern starts with an operand tried at every
    # word: `= 1.0f -` before `wx0 = 1.0f - wx1`. None: the screen is enough.
    lead: re.Pattern[str] | None = None


def _idiom(op: str, screen: str, pattern: str, incidental: bool = False, lead: str = "") -> Idiom:
    return Idiom(op, screen, re.compile(pattern), incidental, re.compile(lead) if lead else None)


IDIOMS: tuple[Idiom, ...] = (
    # v = max(v, 0): as a branch, a conditional, a max call, or AscendC's Maxs with a zero scalar
    _idiom("relu", "0.", rf"if\s*\(\s*{_ACTIVATED}\s*<=?\s*{_ZERO}\s*\)\s*\{{?\s*\1\s*=\s*{_ZERO}\s*;", True),
    _idiom(
        "relu", "?", rf"{_ACTIVATED}\s*>=?\s*{_ZERO}\s*\)?\s*\?\s*\1\s*:\s*{_ZERO}", True, lead=r">=?\s*0\."
    ),
    _idiom(
        "relu", "?", rf"{_ACTIVATED}\s*<=?\s*{_ZERO}\s*\)?\s*\?\s*{_ZERO}\s*:\s*\1\b", True, lead=r"<=?\s*0\."
    ),
    _idiom(
        "relu",
        "max",
        rf"\b(?:fmaxf?|(?:std::)?max)\s*\(\s*(?:\w+\s*,\s*{_ZERO}|{_ZERO}\s*,\s*\w+)\s*\)",
        True,
        lead=r"max",
    ),
    _idiom(
        "relu",
        "Maxs",
        rf"\bMaxs{_CALL}\s*[^,;]{{1,128}},\s*[^,;]{{1,128}},\s*(?:\(\s*\w+\s*\)\s*\(?|static_cast<\w+>\()?"
        r"\s*0(?:\.0*)?[fF]?\s*\)?\s*,",
        True,
    ),
    # v < 0 scaled by a slope: `v >= 0.0f ? v : v * slope`, `if (v < 0.0f) v *= slope;`
    _idiom(
        "leaky_relu",
        "?",
        rf"{_VAR}\s*>=?\s*{_ZERO}\s*\)?\s*\?\s*\(?\s*\1\s*\)?\s*:\s*\(?\s*\1\s*\*\s*\w+",
        lead=r">=?\s*0\.",
    ),
    _idiom(
        "leaky_relu",
        "?",
        rf"{_VAR}\s*<=?\s*{_ZERO}\s*\)?\s*\?\s*\(?\s*\1\s*\*\s*\w+\s*\)?\s*:\s*\1\b",
        lead=r"<=?\s*0\.",
    ),
    _idiom("leaky_relu", "0.", rf"if\s*\(\s*{_VAR}\s*<=?\s*{_ZERO}\s*\)\s*\{{?\s*\1\s*(?:\*=|=\s*\1\s*\*)"),
    # v times its own sigmoid: AscendC's Sigmoid then a Mul by its input, or as written in a formula
    _idiom(
        "swish",
        "Sigmoid",
        rf"\bSigmoid{_CALL}\s*{_VAR}\s*,\s*{_VAR}[^;]{{0,400}};\s*(?:AscendC::)?Mul{_CALL}"
        r"\s*\w+\s*,\s*(?:\1\s*,\s*\2|\2\s*,\s*\1)\b",
    ),
    _idiom("swish", "igmoid", rf"(?i)\b{_VAR}\s*\*\s*sigmoid\s*\(\s*\1\s*\)"),
    _idiom(
        "swish",
        "exp",
        rf"\b{_VAR}\s*/\s*\(\s*{_ONE}\s*\+\s*{_EXP}\s*-\s*\1\s*\)",
        lead=rf"/\s*\(\s*{_ONE}\s*\+\s*{_EXP}",
    ),
    # a recurrent cell fed an initial hidden and cell state: an LSTM (a GRU has no cell state)
    _idiom("lstm", "h0", r"(?s)^(?=.*\bh0\b)(?=.*\bc0\b)(?=.*\b(?:w_?ih|weight_ih\w*)\b)"),
    # an op whose input is a sampling grid
    _idiom(
        "grid_sample",
        "grid",
        r'\bInput\("grid"\)|"name"\s*:\s*"grid"|def forward\(\s*self\s*,\s*\w+\s*,\s*grid\s*\)',
    ),
    # a float grid coordinate in [-1, 1] taken to a pixel index, `((g + 1.0f) * W - 1) * 0.5f`
    # (or, with aligned corners, `(g + 1.0f) * 0.5f * (W - 1)`): the sampling step of a grid sample
    _idiom(
        "grid_sample",
        "+ 1",
        rf"\(\s*{_VAR}\s*\+\s*1\.0*[fF]?\s*\)\s*\*\s*(?:\w{{1,64}}\s*-\s*{_ONE}\s*\)\s*\*\s*0\.50*[fF]?|\w{{1,64}}"
        rf"\s*-\s*{_ONE}\s*\)\s*/\s*2(?:\.0*)?[fF]?|0\.50*[fF]?\s*\*\s*\(\s*\w{{1,64}}\s*-\s*{_ONE}\s*\))",
        lead=r"\+\s*1\.0*[fF]?\s*\)\s*\*",
    ),
    # a pair of blending weights that sum to one, `wx0 = 1.0f - wx1`, or the quarter weights of a
    # 2x upsample (`w0 = 0.75f; w1 = 0.25f;`): a linear interpolation (a grid sample blends its
    # neighbours so too: `schemas.taskops.IMPLEMENTED_WITH`)
    _idiom(
        "interpolate",
        "1",
        rf"\b(\w{{0,63}}[A-Za-z_])([01])\s*=\s*{_ONE}\s*-\s*\1(?!\2)[01]\b"
        r"|\b(\w{0,63}[A-Za-z_])0\s*=\s*0\.750*[fF]?\s*;\s*(?:\3)1\s*=\s*0\.250*[fF]?",
        lead=r"=\s*(?:1(?:\.0*)?[fF]?\s*-|0\.750*[fF]?\s*;)",
    ),
    # a loss over an anchor, a positive and a negative: a triplet margin loss
    _idiom("triplet", "anchor", r"(?s)^(?=.*\banchor\b)(?=.*\bpositive\b)(?=.*\bnegative\b)"),
    # a clamp to [-1, 1]: AscendC's Maxs(-1) then Mins(1), or fmin(fmax(v, -1), 1)
    _idiom(
        "hardtanh",
        "Mins",
        rf"\bMaxs{_CALL}[^;]{{0,400}}?-\s*1(?:\.0*)?[fF]?\s*\)?\s*,[^;]{{0,400}};\s*(?:AscendC::)?Mins{_CALL}"
        r"[^;]{0,400}?[(,]\s*1(?:\.0*)?[fF]?\s*\)?\s*,",
    ),
    _idiom(
        "hardtanh",
        "min",
        rf"\bf?min\w*\s*\(\s*f?max\w*\s*\(\s*[^,()]{{1,64}}?\s*,\s*-\s*{_ONE}\s*\)\s*,\s*{_ONE}\s*\)",
    ),
    # bounds of -1 and 1 named as a clamp's (`clipLo = -1.0f, clipHi = 1.0f`, `Attr("clip_min")
    # ... Float(-1.0f)`), in a row that clamps by them: a hard tanh
    _idiom(
        "hardtanh",
        "Mins",
        r"(?s)^(?=.*\b(?:Mins|fminf?|clamp)\b)(?=.*(?P<shown>\b\w{0,32}(?:[mM]in|[lL]o|[lL]ow|LO|MIN)\w{0,8}\b[^;\n]{0,40}?"
        r"-\s*1(?:\.0*)?[fF]?(?![\w.])[^\n]{0,200}?\n?[^\n]{0,200}?\b\w{0,32}(?:[mM]ax|[hH]i|[hH]igh|HI|MAX)\w{0,8}\b"
        r"[^;\n]{0,40}?(?<![-\w.])1(?:\.0*)?[fF]?(?![\w.])))",
        lead=r"-\s*1(?:\.0*)?[fF]?(?![\w.])",
    ),
    # t = v + 3, clamped, and v times t with a 6 in between (`* (1.0f / 6.0f)`, `> 6.0f`), all
    # within a few lines: a hard swish
    _idiom(
        "hardswish",
        "3.",
        rf"(?s){_VAR}\s*=\s*\(?\s*{_VAR}\s*\+\s*3\.0*[fF]?\b(?=.{{0,240}}?\b6\.0*[fF]?\b).{{0,240}}?"
        r"\b\2\s*\*\s*\(?\s*\1\b",
        lead=r"\+\s*3\.0*[fF]?\b",
    ),
    # relu6(v + 3) / 6, or v / 6 + 0.5 clamped to [0, 1]: a hard sigmoid, in AscendC's calls (an
    # Adds of 3, Maxs, then a Mins of 6; a Muls of a sixth, an Adds of a half, Maxs, then a Mins of
    # 1) or as a formula; its constants may be named (`c3`, `kSix`, `ONE_SIXTH`). A hard swish takes
    # its input times it: `schemas.taskops.IMPLEMENTED_WITH`.
    _idiom(
        "hardsigmoid",
        "Mins",
        rf"\bAdds{_CALL}[^;]{{0,400}}?,\s*{_THREE}\s*\)?\s*,[^;]{{0,128}};{_STEPS}Maxs{_CALL}[^;]{{0,400}};"
        rf"{_STEPS}Mins{_CALL}[^;]{{0,400}}?,\s*{_SIX}\s*\)?\s*,"
        rf"|\bMuls{_CALL}[^;]{{0,400}}?,\s*{_SIXTH}\s*,[^;]{{0,128}};{_STEPS}Adds{_CALL}[^;]{{0,400}}?,\s*{_HALF}"
        rf"\s*\)?\s*,[^;]{{0,128}};{_STEPS}Maxs{_CALL}[^;]{{0,400}};{_STEPS}Mins{_CALL}[^;]{{0,400}}?,\s*{_ONE}\s*\)?\s*,",
        lead=rf"\bMins{_CALL}",
    ),
    # any affine step clamped to [0, 1], call by call (`Muls`, `Adds`, `Maxs` of 0, `Mins` of 1):
    # a hard sigmoid with its slope and offset named (`alpha`, `beta`); a negation so clamped is
    # a mask of valid positions (a grid sample's)
    _idiom(
        "hardsigmoid",
        "Mins",
        rf"\bMuls{_CALL}(?![^;]{{0,400}}?,\s*-\s*1(?:\.0*)?[fF]?\s*,)[^;]{{0,400}};{_NEXT}Adds{_CALL}[^;]{{0,400}};{_NEXT}"
        rf"Maxs{_CALL}[^;]{{0,400}}?,\s*{_ZERO}\s*,"
        rf"[^;]{{0,128}};{_NEXT}Mins{_CALL}[^;]{{0,400}}?,\s*{_ONE}\s*,",
        lead=rf"\bMins{_CALL}",
    ),
    _idiom(
        "hardsigmoid",
        "6",
        r"(?<![*\w]\s)(?<![*\w])\b(?:clamp|relu6)\s*\(\s*\w{1,64}\s*\+\s*3(?:\.0*)?[fF]?\s*(?:,\s*0(?:\.0*)?[fF]?\s*,"
        r"\s*6(?:\.0*)?[fF]?\s*)?\)\s*/\s*6\b|\bclamp\s*\(\s*\w{1,64}\s*/\s*6(?:\.0*)?[fF]?\s*\+\s*(?:0\.5|1\s*/\s*2)"
        r"\s*,\s*0(?:\.0*)?[fF]?\s*,\s*1(?:\.0*)?[fF]?\s*\)",
        lead=r"\b(?:clamp|relu6)\s*\(",
    ),
    # exp(v - max), a scalar's or AscendC's (an Adds of -max, or a Sub of a Duplicate of the max, then
    # Exp), in a row that takes no logarithm (a log-sum-exp, a log-softmax): a softmax (incidental:
    # attention normalises its scores so too)
    _idiom(
        "softmax",
        "xp",
        rf"(?s)^(?!.*\b(?:Log|logf?)\s*\()(?=.*(?P<shown>{_EXP_LESS_MAX}))",
        True,
        lead=r"[mM]ax",
    ),
    # a row divided by the sum of its magnitudes: an L1 norm (the division by the sum, or by a
    # scalar's multiplication by its reciprocal)
    _idiom(
        "norm",
        "Abs",
        rf"(?s)\bAbs{_CALL}.{{0,800}}?\bReduceSum\b.{{0,800}}?(?:\bDiv{_CALL}|/\s*(?:this->)?\w{{0,64}}[sS]um\b)",
    ),
    # squares summed and a root taken, with no mean taken off first: an L2 (Frobenius) norm
    _idiom(
        "norm",
        "ReduceSum",
        rf"(?s)^(?!.*{_CENTRED})"
        rf"(?=.*(?P<shown>\bMul{_CALL}\s*\w{{1,64}}\s*,\s*{_VAR}\s*,\s*\2\s*[,)].{{0,1200}}?\bReduceSum\b"
        rf".{{0,1200}}?\bR?[sS]qrt\w{{0,8}}\s*\())",
        lead=r"\bReduceSum\b",
    ),
    # squares summed, scaled, an epsilon added and a root taken, with no mean taken off first
    # (a layer, batch or instance norm centres its values: `Sub`, `x - mean`, an `Adds` of `-mean`),
    # nor the squares added to a running state (`Add(h, h, hOld)`: an Adagrad step): an RMS norm
    _idiom(
        "rms_norm",
        "eps",
        rf"(?s)^(?!.*{_CENTRED})"
        rf"(?=.*(?P<shown>\bMul{_CALL}\s*(\w{{1,64}})\s*,\s*{_VAR}\s*,\s*\3\s*[,)][^;]{{0,128}};"
        rf"(?!{_NEXT}Add{_CALL}\s*\2\s*,).{{0,800}}?"
        rf"\bAdds{_CALL}[^;]{{0,200}}?\beps\w{{0,16}}[^;]{{0,64}};{_STEPS}R?[sS]qrt{_CALL}))",
        lead=rf"\bAdds{_CALL}[^;]{{0,200}}?\beps",
    ),
    # a difference squared (`Sub`, then a `Mul` of it by itself) and summed, in a row that takes
    # no root and no mean away: a mean squared error (a variance subtracts a mean, a norm roots it)
    _idiom(
        "mse",
        "Sub",
        rf"(?s)^(?!.*(?:\bR?[sS]qrt{_CALL}|[mM]ean\w{{0,16}}\s*[,)]))(?=.*(?P<shown>\bSub{_CALL}\s*{_VAR}\s*,"
        rf"[^;]{{0,200}};{_STEPS}Mul{_CALL}\s*\w{{1,64}}\s*,\s*\2\s*,\s*\2\s*[,)].{{0,600}}?\bReduceSum\b))",
        lead=r"\bReduceSum\b",
    ),
    # 1 - v (a `Muls` by -1, then an `Adds` of 1) clamped at zero, each the next call: a hinge (a
    # sigmoid and a softplus take an `Exp` between)
    _idiom(
        "hinge",
        "Adds",
        rf"\bMuls{_CALL}[^;]{{0,400}}?,\s*-\s*1(?:\.0*)?[fF]?\s*\)?\s*,[^;]{{0,128}};{_NEXT}{_ADD_ONE}{_NEXT}"
        rf"(?:Relu{_CALL}|Maxs{_CALL}[^;]{{0,400}}?,\s*0(?:\.0*)?[fF]?\s*\)?\s*,)",
        lead=rf"Adds{_CALL}",
    ),
    # v / (1 + |v|): AscendC's Abs, an Adds of 1 (or an Add of ones), then a Div of the input by
    # it; or as a formula (either order of the sum)
    _idiom(
        "softsign",
        "Abs",
        rf"\bAbs{_CALL}\s*{_VAR}\s*,\s*{_VAR}[^;]{{0,400}};{_STEPS}{_ADD_ONE}{_STEPS}Div{_CALL}\s*\w{{1,64}}\s*,\s*\2\s*,\s*\1\b",
        lead=rf"\bAbs{_CALL}",
    ),
    _idiom(
        "softsign",
        "abs",
        rf"\b{_VAR}\s*/\s*\(\s*(?:{_ONE}\s*\+\s*(?:std::)?f?abs\w*\s*\(\s*\1\s*\)|(?:std::)?f?abs\w*\s*\(\s*\1\s*\)\s*\+\s*{_ONE})\s*\)",
        lead=r"/\s*\(\s*(?:1|(?:std::)?f?abs)",
    ),
    # a magnitude and half a square side by side: a smooth L1 (Huber) loss, quadratic below its
    # threshold and linear above (`|d| < 1 ? 0.5f * d * d : |d| - 0.5f`); in AscendC's calls, the
    # magnitude clipped at the threshold of 1 by the next call (`Abs`, then `Mins(c, a, 1.0f)`), and
    # half of it taken within two calls (a linear interpolation's weight, `1 - min(|d|, 1)`, takes none)
    _idiom(
        "huber",
        "Mins",
        rf"\bAbs{_CALL}\s*{_VAR}[^;]{{0,400}};{_NEXT}Mins{_CALL}\s*\w{{1,64}}\s*,\s*\1\s*,\s*{_ONE}\s*,"
        r"[^;]{0,128};(?:[^;]{0,200};){0,2}?[^;]{0,200}?[(,]\s*-?\s*0\.50*[fF]?\s*,",
        lead=rf"\bMins{_CALL}",
    ),
    _idiom(
        "huber",
        "abs",
        rf"(?s)\bf?abs\w{{0,8}}\s*\(.{{0,300}}?\b0\.50*[fF]?\s*\*\s*{_VAR}\s*\*\s*\1\b"
        rf"|\b0\.50*[fF]?\s*\*\s*{_VAR}\s*\*\s*\2\b.{{0,300}}?\bf?abs\w{{0,8}}\s*\(",
        lead=r"\b0\.50*[fF]?\s*\*\s*\w{1,64}\s*\*",
    ),
    # a logarithm taken in a row that reads logits and their labels (or targets): a cross entropy
    _idiom(
        "cross_entropy",
        "ogit",
        rf"(?s)^(?=.*\b[lL]ogits?\w{{0,16}}\b)(?=.*\b\w{{0,16}}(?:[lL]abels?|[tT]argets?)\w{{0,16}}\b)"
        rf"(?=.*(?P<shown>\b(?:Log|Ln){_CALL}|\blogf?\s*\())",
        lead=r"\b[lL]ogits?",
    ),
    # a running product of elements written out at every step (`acc *= x.GetValue(i);
    # y.SetValue(i, acc);`): a cumulative product (a reduction writes once, at a fixed place)
    _idiom(
        "cumprod",
        "*",
        rf"{_VAR}\s*(?:\*=|=\s*\1\s*\*)[^;]{{0,64}}(?:\.GetValue\(|\[)[^;]{{1,64}};"
        r"\s*(?:\w{1,64}\.SetValue\(\s*[A-Za-z_][^,;]{0,63},\s*\1\s*\)|\w{1,64}\s*\[\s*[A-Za-z_][^\];]{0,63}\]\s*=\s*\1\s*;)",
        lead=r"\*=|=\s*\w{1,64}\s*\*",
    ),
    # an input named a mask and a scalar selected where it is set (AscendC's `Select` in its
    # tensor-scalar mode, `mask[i] ? value : x[i]`): a masked fill (a `where` selects between two
    # tensors, `mask[j] ? x[i] : y[i]`)
    _idiom(
        "masked_fill",
        "mask",
        r'(?s)^(?=.*(?:\bInput\("mask"\)|"name"\s*:\s*"mask"|\bGM_ADDR\s+mask\b))'
        r"(?=.*(?P<shown>\bSelect\s{0,8}(?:<[^<>;]{0,64}>)?\s{0,8}\([^;]{0,400}?VSEL_TENSOR_SCALAR_MODE"
        r"|\b\w{0,16}[mM]ask\w{0,16}\s*(?:\[[^\]\n]{1,64}\]|\.GetValue\([^)\n]{1,64}\))\s*(?:!=\s*0\s*)?\)?\s*\?"
        r"(?!\s*\w{1,64}\s*(?:\[|\.GetValue\()[^:;\n]{0,64}:\s*\w{1,64}\s*(?:\[|\.GetValue\())))",
        lead=r"[mM]ask",
    ),
    # A write through an index tensor, as a row's formula or its code says it (`y[indices[i], :]
    # += values[i, :]`, `out[idx[j]] = v[j]`): a scatter, whose renamed row (an index copy, an
    # index add, an in-place update) keeps no op word. A read through one is a gather
    # (`y[i] = x[idx[i]]`). Each behind an index tensor the row is given (`INDEX_INPUT`).
    _idiom(
        "scatter",
        "[",
        rf"\b\w{{1,32}}\[\s{{0,4}}{_INDEXED}\s{{0,4}}(?:,\s{{0,4}}:\s{{0,4}})?\]\s{{0,4}}\+?=(?!=)",
        lead=INDEX_INPUT.pattern,
    ),
    _idiom(
        "gather",
        "[",
        rf"(?<![=!<>])=\s{{0,4}}\w{{1,32}}\[\s{{0,4}}(?:\w{{1,16}},\s{{0,4}})?{_INDEXED}\s{{0,4}}(?:,\s{{0,4}}:\s{{0,4}})?\]",
        lead=INDEX_INPUT.pattern,
    ),
    # AscendC's bitwise `And` over a destination, two sources and a count: a logical and of
    # boolean tensors, read as bytes or halves (its name is an English word, never read as an op)
    _idiom(
        "logical_and",
        "And",
        rf"\bAnd{_CALL}\s*[^,;()]{{1,128}},\s*[^,;()]{{1,128}},\s*[^,;()]{{1,128}},\s*[^;]{{1,128}}\)\s*;",
    ),
    # both moments' decay rates and a root: an Adam step (LAMB scales its step by a trust ratio)
    _idiom(
        "adam",
        "eta",
        r"(?s)^(?!.*\b\w{0,16}[tT]rust)(?=.*(?P<shown>\b[bB]eta_?1\w{0,16}\b))(?=.*\b[bB]eta_?2\w{0,16}\b)"
        r"(?=.*\b(?:R?[sS]qrt|sqrtf?)\b)",
        lead=r"\b[bB]eta_?2",
    ),
    # 1 / (1 + exp(-v)); log(1 + exp(v)); the constants of GELU's tanh form and of SELU
    _idiom("sigmoid", "exp", rf"{_ONE}\s*/\s*\(\s*{_ONE}\s*\+\s*{_EXP}\s*-"),
    # the same in AscendC's vector calls: Muls(t, v, -1), Exp(t, t), Adds(t, t, 1) (or an Add of
    # ones), then Reciprocal (or a Div by it); a statement or two (a barrier) may stand between steps
    _idiom(
        "sigmoid",
        "Exp",
        rf"(?s)\bMuls{_CALL}[^;]{{0,400}}?,\s*-\s*1(?:\.0*)?[fF]?\s*\)?\s*,[^;]{{0,128}};{_STEPS}Exp{_CALL}[^;]{{0,400}};"
        rf"{_STEPS}{_ADD_ONE}{_STEPS}(?:Reciprocal|Div)\b",
        lead=rf"Exp{_CALL}[^;]{{0,400}};",
    ),
    # log(1 + exp(v)) in AscendC's calls: Exp, an Adds of 1 (or an Add of ones), then Log; tanh as
    # (1 - e) / (1 + e) of e = exp(-2 v) (Muls, Exp, Div); a softplus, then at most 8 statements
    # on (its max(v, 0) half, lane by lane), such a tanh of it, then a Mul: a mish
    _idiom("softplus", "Log", rf"(?s){_SOFTPLUS_CALLS}", lead=_LOG_AFTER_ADD),
    _idiom("tanh", "Exp", rf"(?s){_TANH_CALLS}", lead=rf"Muls{_CALL}[^;]{{0,400}}?,\s*-?\s*2"),
    _idiom(
        "mish",
        "Log",
        rf"(?s){_SOFTPLUS_CALLS}(?:[^;]{{0,200}};){{0,8}}?[^;]{{0,200}}?{_TANH_CALLS}(?:[^;]{{0,200}};){{0,2}}?[^;]{{0,200}}?\bMul\b",
        lead=_LOG_AFTER_ADD,
    ),
    _idiom("softplus", "exp", rf"\blog1p\w*\s*\(\s*{_EXP}|\blog\w*\s*\(\s*{_ONE}\s*\+\s*{_EXP}"),
    _idiom("gelu", "0.", r"\b0\.044715|\b0\.7978845|\b1\.5957691", lead=r"\.(?:044715|7978845|5957691)"),
    # the exact form: the error function of the input over root two, x * 0.5 * (1 + erf(x / sqrt(2)))
    _idiom(
        "gelu",
        "erf",
        r"\berf\w{0,16}\s*\(\s*[^;()\n]{0,64}?(?:/\s*(?:std::)?sqrtf?\s*\(\s*2(?:\.0*)?[fF]?\s*\)"
        r"|\*\s*0\.7071|\bM_SQRT1_2|\b[iI]nv_?[sS]qrt_?2|\b[sS]qrt1_2)",
    ),
    _idiom("selu", "1.", r"\b1\.0507009|\b1\.6732632", lead=r"\.(?:0507009|6732632)"),
    # a sum over a window or a plane times the reciprocal of its size: an average pool or a mean
    _idiom(
        "avg_pool",
        "ool",
        rf"(?i){_NAME}(?:inv\w*?pool|pool\w*?(?:reciprocal|inv|divisor|count|elems))",
        True,
        lead=r"(?i)pool",
    ),
    _idiom(
        "mean",
        "um",
        rf"{_NAME}[sS]um\w*\s*\*\s*(?:this->)?{_NAME}(?:[rR]eciprocal|[iI]nv[A-Z_])",
        True,
        lead=r"[sS]um\w{0,64}\s*\*",
    ),
    # an accumulator times the reciprocal of a count (`acc * invK`), not of a deviation or a norm
    _idiom(
        "mean",
        "cc",
        rf"{_NAME}[aA]cc\w{{0,64}}\s*\*\s*(?:this->)?{_NAME}(?:[rR]eciprocal|[iI]nv(?!_?(?:[sS]td|[rR]ms|[sS]qrt|[nN]orm|[vV]ar|[dD]ev))[A-Z_])",
        True,
        lead=r"[aA]cc\w{0,64}\s*\*",
    ),
    # a window's sum divided by its count, in a row that pools (`pool_kernel_size`): an average pool
    _idiom(
        "avg_pool",
        "ool",
        rf"(?s)^(?=.*\b[pP]ool)(?=.*(?P<shown>{_NAME}[sS]um\w{{0,64}}\s*/\s*(?:this->)?{_NAME}(?:[cC]ount|[dD]ivisor|[cC]nt\b)))",
        True,
        lead=r"[sS]um\w{0,64}\s*/",
    ),
    # a running maximum, `m = (v > m) ? v : m` (incidental: a softmax keeps one too; `m = max(m, v)`
    # is as often a host's workspace size, and placed nothing more on dev)
    _idiom(
        "max",
        "?",
        _running(">"),
        True,
        lead=r">=?\s*\w{1,64}\s*\)?\s*\?",
    ),
    # a running minimum, `if (v < m) m = v;` (incidental: a host clamps a block count so too)
    _idiom(
        "min",
        "if",
        rf"if\s*\(\s*{_VAR}\s*<=?\s*{_VAR}\s*\)\s*\{{?\s*\2\s*=\s*\1\s*;",
        True,
        lead=r"if\s*\(\s*\w{1,64}\s*<",
    ),
    # v = min(v, 0): a clamp from above at zero, as a branch or a conditional
    _idiom(
        "min",
        "0.",
        rf"if\s*\(\s*{_VAR}\s*>=?\s*{_ZERO}\s*\)\s*\{{?\s*\1\s*=\s*{_ZERO}\s*;",
        True,
        lead=r">=?\s*0\.",
    ),
    _idiom("min", "?", rf"{_VAR}\s*>=?\s*{_ZERO}\s*\)?\s*\?\s*{_ZERO}\s*:\s*\1\b", True, lead=r">=?\s*0\."),
    # a loop over a kernel window (its bound named after a kernel, a window or a pool, or `K`, `KH`,
    # `kSize`) that keeps a running maximum: a max pool (the window's body
    # checks an index against the padding before it reads: its gap is the longer, still bounded)
    _idiom(
        "max_pool",
        "for",
        r"(?s)\bfor\s*\([^;]{0,128};\s*\w{1,64}\s*<\s*(?:this->)?(?:\w{0,64}?(?:[kK]ernel|[wW]indow|[pP]ool)\w{0,64}"
        r"|[kK][dDhHwWlL]?|KS|[kK]_?[sS]ize)\s*;"
        rf"[^;{{}}]{{0,128}}\)\s*\{{.{{0,800}}?{_VAR}\s*=\s*(?:\(?\s*{_VAR}\s*>=?\s*\1\s*\)?\s*\?\s*\2\s*:\s*\1\b|"
        r"(?:std::|AscendC::)?\w{0,16}[mM]ax\w{0,16}\s*\(\s*\1\s*,\s*[A-Za-z_])",
        lead=r"<\s*(?:this->)?(?:\w{0,64}?(?:[kK]ernel|[wW]indow|[pP]ool)|[kK][dDhHwWlL]?\s*;|KS\s*;|[kK]_?[sS]ize)",
    ),
    # the position of an extreme kept with it: AscendC's ReduceMax / ReduceMin asked for its index
    # (`calIndex`, the fifth argument, true after a count; not the pattern API's `srcInnerPad`
    # after a shape), or a vector compare whose mask selects into an index tensor: an argmax or an
    # argmin (fresh rows: a max reduction had been placed instead). Left out: a scalar running
    # compare that records where (`if (v > best) { best = v; idx = i; }`), as often a host's check
    # of its results (ops-sparse: the worst error's index); "the position of the maximum" in a
    # comment, which placed nothing more and, tried on every row of prose, cost as much as all the
    # other idioms together.
    *(
        _idiom(
            arg,
            reduce,
            rf"\b{reduce}\s{{0,8}}(?:<\s{{0,8}}\w{{1,32}}\s{{0,8}}>)?\s{{0,8}}\((?:\s*[^,;]{{1,128}},){{3}}"
            r"(?![^,;]{0,128}(?:[sS]hape|\{))\s*[^,;]{1,128},\s*(?:/\*\s*\w{0,16}\s*=?\s*\*/\s*)?true\s*\)",
            lead=rf"\b{reduce}\b",
        )
        for arg, reduce in (("argmax", "ReduceMax"), ("argmin", "ReduceMin"))
    ),
    *(
        _idiom(
            arg,
            "CMPMODE",
            rf"CMPMODE::{mode}\b[^;]{{0,128}};(?:[^;]{{0,200}};){{0,2}}?\s*(?:AscendC::)?Select{_CALL}\s*{_INDEX_NAME}\s*,",
            lead=rf"CMPMODE::{mode}\b",
        )
        for arg, mode in (("argmax", "GT"), ("argmin", "LT"))
    ),
    # a weight laid out (out channels, in channels, kernel...): a convolution's (a matmul's has no kernel)
    _idiom(
        "conv",
        "in",
        r"(?i)\b(?:c_?out|out_?c(?:hannels)?|oc)\s*,\s*(?:c_?in|in_?c(?:hannels)?|ic)\b(?:\s*/\s*\w{1,64})?"
        r"\s*,\s*(?:k[hwdl]?|kernel\w{0,16})\b",
        lead=r"(?i),\s*(?:k[hwdl]?|kernel\w{0,16})\b",
    ),
    # statistics of a group of channels, then each value less the mean times the reciprocal of the
    # standard deviation: a group norm
    _idiom(
        "group_norm",
        "roup",
        rf"(?s)^(?=.*\b(?:group|groups|\w{{0,64}}PerG(?:roup)?)\b)(?=.*(?P<shown>\(\s*{_VAR}\s*-\s*(?:this->)?{_NAME}mean\w{{0,64}}"
        r"\s*\)\s*\*\s*(?:this->)?\b\w{0,64}?(?:[iI]nv|[rR]std|[rR]sqrt|[iI]std)))",
        True,
        lead=r"-\s*(?:this->)?\w{0,64}mean\w{0,64}\s*\)\s*\*",
    ),
    # values centred, an epsilon added and a root taken, an affine `gamma` and `beta`, and each
    # row (the last dim) normalised: a layer norm (a group's, a plane's or a batch's statistics are
    # other norms')
    _idiom(
        "layer_norm",
        "eps",
        rf"(?s)^(?!.*\b(?:{_GROUPS}|hw|HW|[pP]lane\w{{0,16}}|{_OVER_BATCH})\b)"
        rf"(?=.*{_CENTRED})(?=.*\bgamma\w{{0,16}}\b)(?=.*\bbeta\w{{0,16}}\b)(?=.*\beps\w{{0,16}}\b)"
        r"(?=.*(?P<shown>\b\w{0,32}[rR]ow_?[nN]orm\w{0,32}|\b[lL]ast[ _-]?(?:dim|axis)\b|\bnormalized_shape\b))",
        lead=r"[rR]ow_?[nN]orm|[lL]ast[ _-]?(?:dim|axis)|normalized_shape",
    ),
    # a variance from the moments, with its statistics said to be taken over the batch (`over
    # batch`, `N*H*W`) and no plane's: a batch norm (a per-channel scale is any layer's)
    _idiom(
        "batch_norm",
        "ean",
        rf"(?s)^(?!.*\b(?:hw|HW|[iI]nv_?[hH][wW]\w{{0,64}}|HxW|[pP]er-?\s{{0,4}}\([nN],\s{{0,4}}[cC]\)|[pP]lane\w{{0,16}})\b)"
        rf"(?=.*(?P<shown>{_MOMENTS}))(?=.*(?:\b{_OVER_BATCH}\b|\b(?:N\s?\*\s?H\s?\*\s?W|NHW)\b"
        r"|\([nN],\s{0,4}[hH],\s{0,4}[wW]\)))",
        lead=_MOMENTS_LEAD,
    ),
    # the same, each (sample, channel) plane named as the unit normalised (`per-(n, c)`, `N * C`
    # planes) and no group or batch statistics said: an instance norm (specific: a task's alone)
    _idiom(
        "instance_norm",
        "ean",
        rf"(?s)^(?!.*\b(?:{_GROUPS}|{_OVER_BATCH}|batch\s?stat\w{{0,16}})\b)"
        rf"(?=.*(?P<shown>{_MOMENTS}))(?=.*(?:[pP]er[- ]?\(\s*(?:n|N|sample|batch)\s*,\s*(?:c|C|ch|channel)\s*\)"
        r"|\bN\s?\*\s?C\b|\(\s*n\s*,\s*c\s*\)))",
        lead=_MOMENTS_LEAD,
    ),
    # a variance from the moments, `ex2 - mean * mean`, over a plane (`hw`, `per (N, C)`): an
    # instance norm (incidental: a batch or group norm takes the same statistics, and a layer norm
    # beside words of a plane)
    _idiom(
        "instance_norm",
        "ean",
        rf"(?s)^(?=.*(?P<shown>{_MOMENTS}))(?=.*\b(?:hw|HW|[iI]nv_?[hH][wW]\w{{0,64}}|HxW|[pP]er-?\s{{0,4}}\(N,\s{{0,4}}C\)|[pP]lane\w{{0,16}})\b)",
        True,
        lead=_MOMENTS_LEAD,
    ),
)


# Shapes of strong ops a renamed row may show with no strong op word left in it: the pre-test of
# `dedup.tasks` lets a row that has one through (an Adam step's second decay rate, a variance from
# the moments of a batch or an instance norm, AscendC's `And` of a logical and); each behind a
# literal the row must hold; and a write or a read through an index tensor (a scatter, a gather).
_UNWORDED = re.compile(rf"\b[bB]eta_?2\b|{_MOMENTS_LEAD}|\bAnd{_CALL}|{_INDEXED}")
_UNWORDED_SCREENS = ("eta2", "eta_2", "ean", "And", "dx[", "ndex[", "ndices[")


def may_show_unworded(code: str) -> bool:
    return any(screen in code for screen in _UNWORDED_SCREENS) and _UNWORDED.search(code) is not None


# A running minimum inside a window loop that keeps a running maximum: the loop bounds a range of
# positions (`sMin = s < sMin ? s : sMin; sMax = s > sMax ? s : sMax;`, a transposed conv's valid
# taps), it pools nothing (fresh rows: a plain transposed conv had been placed on a max pool task).
_RUNNING_MIN = re.compile(_running("<"))


def handwritten_ops(code: str) -> list[tuple[str, str, bool]]:
    """(op, the code that shows it, incidental) for each op an idiom finds in `code`, each op once
    (a specific shape wins over an incidental one)."""
    found: dict[str, tuple[str, str, bool]] = {}
    for idiom in IDIOMS:
        if idiom.screen not in code or (idiom.lead is not None and idiom.lead.search(code) is None):
            continue
        hit = idiom.pattern.search(code)
        if hit is None or (idiom.op == "max_pool" and _RUNNING_MIN.search(hit.group(0))):
            continue
        known = found.get(idiom.op)
        if known is None or (known[2] and not idiom.incidental):
            shown = hit.group("shown") if "shown" in idiom.pattern.groupindex else hit.group(0)
            found[idiom.op] = (idiom.op, " ".join(shown.split())[:60], idiom.incidental)
    return list(found.values())
