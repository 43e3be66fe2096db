"""Misspelt qualified AscendC names and wrong argument counts of qualified AscendC calls, found in
the text when clang's parse cannot see them.

Inside a class whose base comes from a header the surface does not have (the `atvoss` DAG
framework of ops repositories, for example), clang drops or skips code, and a misspelt
`Reg::Compares(...)` or `AscendC::DataCopyPadd(...)` goes unreported. A qualified reference into an
AscendC namespace does not depend on that context: the namespace is the surface's, so a name that
the surface does not declare anywhere and that is one typo away from a name of that namespace is
an error wherever it is written; so is a call `Reg::Add(c, a, b)` whose argument count no
overload of the namespace's `Add` admits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from annotate.checker.classify import Verdict, typo_like
from schemas.ascendc.catalog import Catalog
from schemas.ascendc.cursors import UNBOUNDED
from schemas.cpp import mask_comments_and_literals as _mask_uncached

_REFERENCE_RE = re.compile(
    r"(?<![\w:])((?:AscendC::)?(?:Reg|MicroAPI)|AscendC::(?:Te|Simt)|AscendC)::(\w+)\s*(?=[<(])"
)
# A unit that declares its own `Reg`/`MicroAPI` (namespace, class, alias to something else) means
# its own thing by it.
_OWN_SCOPE_RE = re.compile(r"\b(?:namespace|class|struct)\s+(Reg|MicroAPI)\b(?!\s*=\s*(?:::)?AscendC::)")


@lru_cache(maxsize=256)
def mask_comments_and_literals(text: str) -> str:
    """The same masking, once per text: four textual checks read the same sources."""
    return _mask_uncached(text)


def _scope_of(qualifier: str) -> str:
    """The AscendC namespace a qualifier names (`Reg` and `MicroAPI` are one namespace)."""
    if qualifier in ("AscendC", "AscendC::Te", "AscendC::Simt"):
        return qualifier
    return "AscendC::Reg"


@dataclass(frozen=True, slots=True)
class QualifiedFinding:
    file: str
    line: int
    verdict: Verdict


def namespace_names(catalog: Catalog) -> dict[str, set[str]]:
    """Names declared directly in each AscendC namespace of the catalog."""
    found: dict[str, set[str]] = {}
    for entry in catalog.entries:
        if "::" in entry.qualified:
            scope = entry.qualified.rsplit("::", 1)[0]
            found.setdefault(scope, set()).add(entry.name)
    return found


def misspelt_qualified_names(
    sources: dict[str, str], catalog: Catalog, declared: set[str]
) -> list[QualifiedFinding]:
    """`AscendC::X(`, `Reg::X<` ... where X is declared nowhere (surface or unit) but is a
    typo-like edit of a name of that namespace."""
    scopes = namespace_names(catalog)
    known = catalog.known_names() | declared
    own_scopes = {m.group(1) for text in sources.values() for m in _OWN_SCOPE_RE.finditer(text)}
    findings: list[QualifiedFinding] = []
    for file, text in sources.items():
        code = mask_comments_and_literals(text)
        for match in _REFERENCE_RE.finditer(code):
            qualifier, name = match.group(1), match.group(2)
            short_qualifier = qualifier.split("::")[-1]
            if short_qualifier in own_scopes and not qualifier.startswith("AscendC::"):
                continue
            scope = _scope_of(qualifier)
            if name in known:
                continue
            near = sorted(c for c in scopes.get(scope, set()) if _misspelling_of(name, c))
            if not near:
                continue
            line = code.count("\n", 0, match.start()) + 1
            message = (
                f"'{qualifier}::{name}' is not an AscendC API (namespace {scope}); did you mean '{near[0]}'?"
            )
            findings.append(QualifiedFinding(file, line, Verdict("error", "ascendc.unknown_api", message)))
    return findings


def _skip_template_args(code: str, pos: int) -> int:
    """The position after `<...>` starting at `pos` (or `pos` when there is none); -1 if unbalanced."""
    if pos >= len(code) or code[pos] != "<":
        return pos
    depth = 0
    for i in range(pos, len(code)):
        if code[i] == "<":
            depth += 1
        elif code[i] == ">":
            depth -= 1
            if depth == 0:
                return i + 1
        elif code[i] in ";{}":
            return -1
    return -1


def count_arguments(code: str, open_pos: int) -> int | None:
    """Top-level arguments of the call whose `(` is at `open_pos`; None when the text is not
    unambiguous (an unbalanced `<`, the end of the statement before the `)`)."""
    depth = 0
    angle = 0
    count = 0
    seen = False
    for i in range(open_pos + 1, len(code)):
        ch = code[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                if angle:
                    return None
                return count + 1 if seen else 0
            depth -= 1
        elif ch == ";" and depth == 0:
            return None
        elif ch == "<" and depth == 0 and (code[i - 1].isalnum() or code[i - 1] == "_"):
            angle += 1
        elif ch == ">" and depth == 0 and angle:
            angle -= 1
        elif ch == "," and depth == 0 and angle == 0:
            count += 1
        if not ch.isspace():
            seen = True
    return None


def _argument_count_after(code: str, name_end: int) -> int | None:
    """The argument count of the call whose name ends at `name_end` (template arguments skipped);
    None when no call follows or the text is ambiguous."""
    open_pos = _skip_template_args(code, name_end)
    while 0 <= open_pos < len(code) and code[open_pos].isspace():
        open_pos += 1
    if open_pos < 0 or open_pos >= len(code) or code[open_pos] != "(":
        return None
    return count_arguments(code, open_pos)


def _function_arities(catalog: Catalog) -> dict[str, list[tuple[int, int]]]:
    """Qualified function name -> the (min, max) argument counts of its overloads; names that are
    also classes or macros (a constructor call, a macro) are left out."""
    arities: dict[str, list[tuple[int, int]]] = {}
    other: set[str] = set()
    for entry in catalog.entries:
        if entry.kind == "function" and entry.overloads:
            arities.setdefault(entry.qualified, []).extend((o.min_args, o.max_args) for o in entry.overloads)
        else:
            other.add(entry.qualified)
    return {name: spans for name, spans in arities.items() if name not in other}


def _accepted(spans: list[tuple[int, int]]) -> str:
    shown = {
        str(lo) if lo == hi else (f"{lo} or more" if hi >= UNBOUNDED else f"{lo}-{hi}") for lo, hi in spans
    }
    return ", ".join(sorted(shown))


def wrong_qualified_arity(sources: dict[str, str], catalog: Catalog) -> list[QualifiedFinding]:
    """`Reg::Add(c, a, b)`, `AscendC::DataCopy(dst, src)`: no overload takes that many arguments."""
    arities = _function_arities(catalog)
    own_scopes = {m.group(1) for text in sources.values() for m in _OWN_SCOPE_RE.finditer(text)}
    findings: list[QualifiedFinding] = []
    for file, text in sources.items():
        code = mask_comments_and_literals(text)
        for match in _REFERENCE_RE.finditer(code):
            qualifier, name = match.group(1), match.group(2)
            if qualifier.split("::")[-1] in own_scopes and not qualifier.startswith("AscendC::"):
                continue
            scope = _scope_of(qualifier)
            if scope == "AscendC::Te":  # the tensor API is approximated: its counts are not evidence
                continue
            spans = arities.get(f"{scope}::{name}")
            if not spans:
                continue
            n = _argument_count_after(code, match.end())
            if n is None or any(lo <= n <= hi for lo, hi in spans):
                continue
            line = code.count("\n", 0, match.start()) + 1
            message = (
                f"'{qualifier}::{name}' called with {n} arguments; its overloads take {_accepted(spans)}"
            )
            findings.append(QualifiedFinding(file, line, Verdict("error", "ascendc.arity", message)))
    return findings


def wrong_unqualified_arity(
    sources: dict[str, str], catalog: Catalog, unit_declared: set[str], unresolved: tuple[str, ...] = ()
) -> list[QualifiedFinding]:
    """`DataCopyPad(dst, src)` where the unit (and the repository headers it names) declares no
    function of that name, so the call can only reach AscendC's (through `using namespace`, from a
    header, or by argument-dependent lookup on its tensors), and no overload takes that many.
    Inside a template clang judges a call only when the template is instantiated with known
    arguments, which a kernel whose tiling or base class comes from elsewhere never is; the count
    does not depend on the template's arguments. A name that a repository header the checker could
    not resolve (`unresolved`) declares may be the unit's own helper: it is left alone."""
    codes = {file: mask_comments_and_literals(text) for file, text in sources.items()}
    elsewhere = [mask_comments_and_literals(text) for text in unresolved]
    # an unqualified name may reach any AscendC namespace the unit opens (`using namespace
    # AscendC::Reg`): the counts of every namespace's functions of that name are admitted
    arities: dict[str, list[tuple[int, int]]] = {}
    for qualified, admitted in _function_arities(catalog).items():
        arities.setdefault(qualified.rsplit("::", 1)[-1], []).extend(admitted)
    for entry in catalog.entries:
        if entry.kind != "function":  # a constructor call or a macro: not counted
            arities.pop(entry.name, None)
    findings: list[QualifiedFinding] = []
    in_text: dict[str, bool] = {}
    for file, code in codes.items():
        for match in _UNQUALIFIED_CALL_RE.finditer(code):
            name = match.group(1)
            spans = arities.get(name)
            if not spans or name in unit_declared:
                continue
            if name not in in_text:
                in_text[name] = _declared_in_text(name, [*codes.values(), *elsewhere])
            if in_text[name]:
                continue
            n = _argument_count_after(code, match.end(1))
            if n is None or any(lo <= n <= hi for lo, hi in spans):
                continue
            line = code.count("\n", 0, match.start()) + 1
            message = f"'{name}' called with {n} arguments; AscendC's functions of that name take {_accepted(spans)}"
            findings.append(QualifiedFinding(file, line, Verdict("error", "ascendc.arity", message)))
    return findings


_UNQUALIFIED_CALL_RE = re.compile(r"(?<![\w.:>])([A-Za-z_]\w+)\s*(?:<[^;(){}]*>)?\s*\(")
_MEMBER_CALL_RE = re.compile(r"(?:\.|->)\s*([A-Za-z_]\w+)\s*(?:<[^;(){}]*>)?\s*\(")


def dropped_letter(name: str, other: str) -> bool:
    """`Mls` for `Muls`, `Gt` for `Get`: one inner letter of a short name left out (first and last
    kept). Short names get only this edit, which an unrelated helper name rarely happens to be."""
    if len(other) != len(name) + 1 or name[0] != other[0] or name[-1] != other[-1]:
        return False
    return any(other[:i] + other[i + 1 :] == name for i in range(1, len(other) - 1))


_KEYWORDS = frozenset(
    {
        "if",
        "for",
        "while",
        "do",
        "switch",
        "return",
        "sizeof",
        "alignof",
        "decltype",
        "catch",
        "new",
        "delete",
    }
)


def _misspelling_of(name: str, candidate: str) -> bool:
    if name in _KEYWORDS:
        return False
    return typo_like(name, candidate) or (len(name) < 4 and dropped_letter(name, candidate))


def misspelt_unqualified_calls(
    sources: dict[str, str], catalog: Catalog, known: set[str]
) -> list[QualifiedFinding]:
    """`DatCopyPad(dst, src, params)` or `yLocal.SetVlue(i, v)` where nothing anywhere declares the
    name and it is one typo away from an AscendC function (or method): clang says nothing when an
    argument of the call, or the object's type, is itself unknown (recovery drops the call), so
    the text is read too."""
    functions = {e.name for e in catalog.entries if e.kind == "function"}
    methods = catalog.member_names()
    declared = known | catalog.known_names()
    codes = {file: mask_comments_and_literals(text) for file, text in sources.items()}
    findings: list[QualifiedFinding] = []
    calls = [(_UNQUALIFIED_CALL_RE, functions), (_MEMBER_CALL_RE, methods)]
    nearby: dict[tuple[str, int], list[str]] = {}  # per name and call kind: read each name once
    in_text: dict[str, bool] = {}
    for (file, code), (kind, (pattern, candidates)) in (
        (fc, pc) for fc in codes.items() for pc in enumerate(calls)
    ):
        for match in pattern.finditer(code):
            name = match.group(1)
            if name in declared:
                continue
            if (name, kind) not in nearby:
                nearby[name, kind] = sorted(c for c in candidates if _misspelling_of(name, c))
            near = nearby[name, kind]
            if not near:
                continue
            if name not in in_text:
                in_text[name] = _declared_in_text(name, codes.values())
            if in_text[name]:
                continue
            line = code.count("\n", 0, match.start()) + 1
            message = (
                f"'{name}' is not declared anywhere and is not an AscendC API; did you mean '{near[0]}'?"
            )
            findings.append(QualifiedFinding(file, line, Verdict("error", "ascendc.unknown_api", message)))
    return findings


_NOT_A_TYPE = {"return", "else", "case", "do", "throw", "co_return", "new", "delete", "sizeof", "typename"}


def _declared_in_text(name: str, codes: Iterable[str]) -> bool:
    """Whether some occurrence of `name` reads as a declaration (`T name(`, `T* name`, `name =`):
    a declaration clang rejected (its type comes from a missing header) still declares it. The word
    before is tried where a word starts: tried from each of its characters, a long word was read to
    its end from every one (16 KB of one word took 8 s, 50 KB 62 s)."""
    pattern = re.compile(rf"((?<!\w)\w++|[>*&])\s*+\b{re.escape(name)}\b\s*+([(=;,\[{{])")
    for code in codes:
        for match in pattern.finditer(code):
            before = match.group(1)
            if before not in _NOT_A_TYPE and not before.isdigit():
                return True
    return False
