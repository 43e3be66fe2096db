"""Single-site mutations of kernel sources, to measure what the checker catches.

Each mutation changes one AscendC API call in a file and reports the line it touched: a misspelt
API name, a dropped last argument, a wrong template argument, or a variable renamed to an
undeclared one. The benchmark applies them to real kernels; the tests apply them to the example
corpus and assert that the checker fails on the mutated line.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from schemas.cpp import mask_comments_and_literals


@dataclass(frozen=True, slots=True)
class Mutation:
    kind: str  # misspell | drop_arg | template_arg | undeclared_var
    line: int  # 1-based line of the change
    before: str
    after: str
    text: str  # the whole mutated source


def _masked(text: str) -> str:
    """The text with comments and string literals blanked (same length), so matches are code."""
    return mask_comments_and_literals(text)


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _matching_paren(code: str, open_pos: int) -> int:
    depth = 0
    for i in range(open_pos, len(code)):
        ch = code[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def _split_args(code: str, start: int, end: int) -> list[tuple[int, int]]:
    """Top-level argument spans of the call whose parentheses are (start, end)."""
    spans: list[tuple[int, int]] = []
    depth = 0
    angle = 0
    begin = start + 1
    for i in range(start + 1, end):
        ch = code[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "<" and depth == 0 and code[i - 1].isalnum():
            angle += 1
        elif ch == ">" and angle and depth == 0:
            angle -= 1
        elif ch == "," and depth == 0 and angle == 0:
            spans.append((begin, i))
            begin = i + 1
    if code[begin:end].strip():
        spans.append((begin, end))
    return spans


_CALL_KEYWORDS = {"return", "else", "case", "do", "co_return", "throw"}


def _is_declaration(code: str, start: int) -> bool:
    """`void Add(` or `inline T Foo(` declare; `= Add(`, `return Add(`, `; Add(` call."""
    before = code[:start].rstrip()
    if not before:
        return False
    last = before[-1]
    if last in "=(,;{}?:!|&*+-/%^[<":
        return False
    word = re.search(r"(\w+)$", before)
    if word is not None:
        return word.group(1) not in _CALL_KEYWORDS
    return last == ">"


def api_call_sites(text: str, api_names: set[str]) -> list[tuple[str, int, int, int]]:
    """(name, name_start, open_paren, close_paren) for calls of catalog APIs, in order."""
    code = _masked(text)
    pattern = re.compile(r"\b(?:AscendC::)?(?:\w+::)*(\w+)\s*(<[^;(){}]*?>)?\s*\(")
    sites = []
    for m in pattern.finditer(code):
        name = m.group(1)
        if name not in api_names:
            continue
        if _is_declaration(code, m.start()):
            continue
        open_pos = m.end() - 1
        close = _matching_paren(code, open_pos)
        if close > 0:
            sites.append((name, m.start(1), open_pos, close))
    return sites


def misspell_name(name: str, rng: random.Random) -> str:
    """One edit that keeps the name plausible: swap two inner letters, double or drop one."""
    i = rng.randrange(1, len(name) - 1)
    choice = rng.choice(("swap", "double", "drop"))
    if choice == "swap" and name[i] != name[i + 1]:
        return name[:i] + name[i + 1] + name[i] + name[i + 2 :]
    if choice == "drop":
        return name[:i] + name[i + 1 :]
    return name[:i] + name[i] + name[i:]


def misspell_api(text: str, api_names: set[str], rng: random.Random) -> Mutation | None:
    sites = api_call_sites(text, api_names)
    if not sites:
        return None
    name, start, _, _ = rng.choice(sites)
    for _ in range(10):
        wrong = misspell_name(name, rng)
        if wrong != name and wrong not in api_names:
            break
    else:
        return None
    mutated = text[:start] + wrong + text[start + len(name) :]
    return Mutation("misspell", _line_of(text, start), name, wrong, mutated)


def drop_argument(text: str, api_names: set[str], rng: random.Random) -> Mutation | None:
    """Remove the last argument of one API call that has at least one."""
    code = _masked(text)
    candidates = []
    for name, start, open_pos, close in api_call_sites(text, api_names):
        spans = _split_args(code, open_pos, close)
        if spans:
            candidates.append((name, start, spans))
    if not candidates:
        return None
    name, start, spans = rng.choice(candidates)
    cut_from = spans[-2][1] if len(spans) > 1 else spans[-1][0]
    cut_to = spans[-1][1]
    removed = text[cut_from:cut_to]
    mutated = text[:cut_from] + text[cut_to:]
    return Mutation("drop_arg", _line_of(text, start), removed.strip(" ,"), "", mutated)


def wrong_template_argument(text: str, rng: random.Random) -> Mutation | None:
    """Give a queue a type where its position belongs: `TQue<QuePosition::VECIN, N>` -> `TQue<float, N>`."""
    code = _masked(text)
    sites = list(re.finditer(r"\bTQue\s*<\s*((?:AscendC::)?(?:QuePosition|TPosition)::\w+)", code))
    if not sites:
        return None
    m = rng.choice(sites)
    mutated = text[: m.start(1)] + "float" + text[m.end(1) :]
    return Mutation("template_arg", _line_of(text, m.start(1)), m.group(1), "float", mutated)


def undeclared_variable(text: str, rng: random.Random, api_names: set[str] | None = None) -> Mutation | None:
    """Rename one use of a variable to an undeclared name: a `this->member`, or (given the API
    names) a plain variable passed to an AscendC API call."""
    code = _masked(text)
    spans = [(m.start(1), m.end(1)) for m in re.finditer(r"\bthis->(\w+)\b", code)]
    for _, _, open_pos, close in api_call_sites(text, api_names or set()):
        for start, end in _split_args(code, open_pos, close):
            arg = code[start:end].strip()
            if re.fullmatch(r"[a-z_]\w*", arg) and len(re.findall(rf"\b{arg}\b", code)) > 1:
                offset = code.index(arg, start)
                spans.append((offset, offset + len(arg)))
    if not spans:
        return None
    start, end = rng.choice(sorted(set(spans)))
    wrong = text[start:end] + "Undeclared"
    mutated = text[:start] + wrong + text[end:]
    return Mutation("undeclared_var", _line_of(text, start), text[start:end], wrong, mutated)


# Method names distinctive enough that a call `x.Name(` is almost surely the AscendC one.
DISTINCTIVE_METHODS = frozenset(
    {
        "AllocTensor",
        "FreeTensor",
        "EnQue",
        "DeQue",
        "InitBuffer",
        "SetGlobalBuffer",
        "GetWithOffset",
        "ReinterpretCast",
        "SetValue",
        "GetValue",
        "AllocEventID",
        "FetchEventID",
        "ReleaseEventID",
    }
)


def mutation_api_names(function_names: set[str]) -> set[str]:
    """AscendC functions plus the distinctive methods, minus names too short to misspell safely."""
    return {n for n in function_names | DISTINCTIVE_METHODS if len(n) >= 3}
