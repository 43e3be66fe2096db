"""The unit of a header-only template library's example: its own code plus what it instantiates.

A catlass example includes a few headers of the library's `include/` tree, which include the
rest of it: inlining every header reached gives 20k-67k-line "units" that share almost all of
their text, so no teacher can read one and dedup takes every example for a copy of every other.
The kernel is the example's own code (the entry file and the headers of its own folder) plus what
it instantiates from the library: the kernel class the library's entry runs
(`Gemm::Kernel::BasicMatmul`, whose `operator()` takes the `Params` the adapter passes) and the
library functions it calls, within a line budget. Every other library header (blocks, tiles,
layouts) is only named (the unit's `includes`, read at the unit's `commit`).

This applies only where inlining everything would not fit the budget and the closure reaches an
installed library tree (a folder named `include` outside the entry's folder): ordinary operator
repositories keep their assembled units unchanged.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass

from schemas import DEFAULT_MAX_UNIT_LINES
from schemas.ascendc.includes import library_root
from schemas.cpp import mask_comments_and_literals

_IDENT_RE = re.compile(r"\b[A-Za-z_]\w*\b")
# The library entry's `Operator op; op(params);` runs a class whose `operator()` takes its `Params`
# (`operator()(Params const&)`, `operator()<AscendC::AIC>(const Params&)`); a host-side device
# adapter's `operator()(stream, ...)` does not.
_KERNEL_CALL_OPERATOR_RE = re.compile(
    r"\boperator\s*\(\s*\)\s*(?:<[^;{}()]*>\s*)?\(\s*(?:const\s+)?(?:typename\s+)?[\w:]*Params\b"
)
_NESTED_NAMES = frozenset({"Params", "Arguments"})
# A function definition: a name, its parameter list, its body (`__aicore__ inline void F(...)\n{`).
_FUNCTION_DEF_RE = re.compile(
    r"\b([A-Za-z_]\w*)\s*\([^;{}()]*(?:\([^;{}()]*\)[^;{}()]*)*\)\s*(?:const\s*)?\{"
)
# a bare call (`F(...)`, `F<T>(...)`), not a method or a qualified name (`x.m()`, `L::Make()`)
# Template arguments read at most 512 characters on, `\s*(?:<...>)?\s*` written `\s*(?:<...>\s*)?`:
# 100 KB of `a<` took 5 s, a name then 100 KB of spaces 8 s.
_CALL_RE = re.compile(r"\b([A-Za-z_]\w*)\s*(?:<[^;(){}]{0,512}>\s*)?\(")
_QUALIFIED_RE = re.compile(r"(?:\.|->|::|::\s*template|\btemplate)\s*$")
_NOT_FUNCTIONS = frozenset(
    {"if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "alignof"}
)
# Any class definition, also one whose template head is a macro (`QBMM_KERNEL_TEMPLATE class X {`).
_ANY_CLASS_RE = re.compile(r"\b(?:struct|class)\s+([A-Za-z_]\w*)\s*(?:final\s*)?(?::[^{;<>]*)?\{")


@dataclass(slots=True)
class UnitFiles:
    """Which files of an entry's include closure make its code, and which are only named."""

    assembled: list[str]  # entry first; the files whose text is the unit's code
    named: list[str]  # library headers reached but not inlined
    operator: str = ""  # the library class the example instantiates as its kernel, "" if none


@dataclass(slots=True)
class _Header:
    path: str
    lines: int
    operator_classes: set[str]  # classes whose `operator()` takes their `Params` (kernel classes)
    functions: set[str]  # free functions and methods it defines


def is_library_header(rel: str, entry: str) -> bool:
    """A header of an installed library tree that the entry is not itself part of."""
    root = library_root(rel)
    return root is not None and not entry.startswith(root + "/")


def unit_files(
    closure: list[str], read: Callable[[str], str | None], max_lines: int = DEFAULT_MAX_UNIT_LINES
) -> UnitFiles:
    """The files of an entry's unit (see the module docstring); `closure` has the entry first."""
    entry = closure[0]
    library = [f for f in closure[1:] if is_library_header(f, entry)]
    total = sum(_line_count(read(f)) for f in closure)
    if not library or total <= max_lines:
        return UnitFiles(list(closure), [])
    own_dir = posixpath.dirname(entry)
    own = [
        f
        for f in closure
        if f == entry or (f not in library and (not own_dir or f.startswith(own_dir + "/")))
    ]
    own_text = mask_comments_and_literals("\n".join(read(f) or "" for f in own))
    names = set(_IDENT_RE.findall(own_text))
    calls = bare_calls(own_text) - {m.group(1) for m in _FUNCTION_DEF_RE.finditer(own_text)}
    headers = [_describe(f, read(f) or "") for f in library]
    chosen = _instantiated(headers, names, calls, max_lines - sum(_line_count(read(f)) for f in own))
    operator = next((n for h in headers if h.path in chosen for n in sorted(h.operator_classes & names)), "")
    assembled = own + [h.path for h in headers if h.path in chosen]
    return UnitFiles(assembled, [f for f in closure if f not in assembled], operator)


def _instantiated(headers: list[_Header], names: set[str], calls: set[str], budget: int) -> set[str]:
    """The kernel classes the own code names (`operator_classes`), then the library functions it
    calls bare (`FlashAttentionEntry(...)`), within `budget` lines, in that order.

    The block-level specialisations its policy selects (`BlockMmad<MmadAtlasA2Pingpong<...>>`)
    are named, not inlined: measured on catlass, inlining them made examples that share a block
    near-duplicates of each other through library text alone (53 of 101 example units kept by
    dedup, against 65 with the kernel class alone and 62 with the own code alone)."""
    picks: list[tuple[int, int, _Header]] = []
    for order, header in enumerate(headers):
        if header.operator_classes & names:
            picks.append((0, order, header))
        elif header.functions & calls:
            picks.append((1, order, header))
    chosen: set[str] = set()
    for _, _, header in sorted(picks, key=lambda p: (p[0], p[1])):
        if header.lines <= budget:
            chosen.add(header.path)
            budget -= header.lines
    return chosen


def bare_calls(text: str) -> set[str]:
    """Names `text` calls as free functions: `F(...)`, `F<T>(...)`, never `x.m()`, `L::F()`,
    `L::template F<T>()` (methods and qualified names are the library's types at work)."""
    found = set()
    for m in _CALL_RE.finditer(text):
        if not _QUALIFIED_RE.search(text[max(0, m.start() - 12) : m.start()]):
            found.add(m.group(1))
    return found - _NOT_FUNCTIONS


def _describe(path: str, text: str) -> _Header:
    masked = mask_comments_and_literals(text)
    # a kernel class: its header defines an `operator()` taking the `Params` the library entry passes
    operators: set[str] = set()
    if _KERNEL_CALL_OPERATOR_RE.search(masked):
        operators = {m.group(1) for m in _ANY_CLASS_RE.finditer(masked)} - _NESTED_NAMES
    functions = {m.group(1) for m in _FUNCTION_DEF_RE.finditer(masked)} - _NOT_FUNCTIONS
    return _Header(path, _line_count(text), operators, functions)


def _line_count(text: str | None) -> int:
    return text.count("\n") + 1 if text else 0
