"""Grounding checks: does the teacher's reasoning agree with the real kernel it explains?

Each check is a small function over the reasoning text and the unit's parsed facts, yielding
diagnostics under its own name. Claims are judged per clause (annotate/reasoning/claims.py): a
fact the reasoning denies, proposes for another version, or compares against is no claim about
this kernel; only assertive clauses are held against it.

- grounding.size             the answer is bounded (checked first; see `size_check`)
- grounding.injection        no text addressed to a model (substance.py)
- grounding.repetition       no sentence repeated across sections (substance.py)
- grounding.substance        every section names this unit's own facts (substance.py)
- grounding.api_exists       every AscendC API the reasoning names exists in the catalog
- grounding.api_used         ... and an API stated as used (written as code, qualified, or as a
                             capitalised name mid-sentence) is one the kernel calls
- grounding.buffer_num       stated buffer counts (double buffering, BUFFER_NUM = 2) match a queue
                             depth the code declares; counts stated for a memory level where the
                             kernel has no queue (a Matmul object's L1) are not the queues' to judge
- grounding.constants        `NAME = 128` stated for a constant the code defines matches its value
- grounding.queue_positions  queue positions named (VECIN, A1, ...) are positions the kernel uses;
                             a vector kernel places nothing in L1/L0
- grounding.tiling_fields    tiling fields named exist in the kernel's tiling structure
- grounding.overlap          the reasoning does not paste the answer (bounded verbatim overlap)
- grounding.sections         the required sections are present and not trivially short

The code-snippet type check lives in the surface verifier (it needs clang); see verifiers.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from annotate.checker.classify import closest, edit_distance
from annotate.reasoning.claims import Clause
from annotate.reasoning.mentions import (
    CODE_SPAN_RE,
    LEVEL_RE,
    ClauseIndex,
    api_mentions,
    bare_mentions,
    line_of,
    member_mentions,
)
from annotate.reasoning.substance import check_injection, check_repetition, check_size, check_substance
from schemas import Diagnostic, KernelUnit
from schemas.ascendc.catalog import Catalog
from schemas.verdicts import REASONING_SECTIONS, reasoning_sections

FENCE_RE = re.compile(r"^```[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)
POSITIONS = ("VECIN", "VECOUT", "VECCALC", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "TSCM")
POSITION_RE = re.compile(r"\b(?:(?:QuePosition|TPosition)::)?(" + "|".join(POSITIONS) + r")\b")
CUBE_POSITIONS = frozenset({"A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "TSCM"})
# Memory levels by their hardware names: a count or a placement stated for them is about the cube
# path (a Matmul object's L1 depth comes from its tiling, not from a queue of the kernel).
LEVEL_POSITIONS = {
    "L1": {"A1", "B1", "C1", "TSCM"},
    "L0A": {"A2"},
    "L0B": {"B2"},
    "L0C": {"CO1"},
    "L0": {"A2", "B2", "CO1"},
}
_QUE_DEPTH_RE = re.compile(r"\bTQue(?:Bind)?\s*<[^<>;]*?,\s*(\w+)\s*>")
_INIT_DEPTH_RE = re.compile(r"\bInitBuffer\s*\(\s*[\w.\[\]>-]+\s*,\s*(\w+)\s*,")
BUFFER_CLAIMS = (
    (re.compile(r"\bBUFFER_NUM\s*(?:=|is|of|equals?|:|to)\s*(\d+)", re.IGNORECASE), None),
    (re.compile(r"\bdouble[- ]buffer(?:s|ing|ed)?\b", re.IGNORECASE), 2),
    (re.compile(r"\bsingle[- ]buffer(?:s|ing|ed)?\b", re.IGNORECASE), 1),
    (re.compile(r"\btriple[- ]buffer(?:s|ing|ed)?\b", re.IGNORECASE), 3),
    (re.compile(r"\b(?:queue )?depth (?:of )?(\d+)\b", re.IGNORECASE), None),
    (re.compile(r"\b(\d+) (?:ping-pong )?buffers (?:per|in each|for each) queue\b", re.IGNORECASE), None),
)
# `NAME = 128` as a claim; not the tail of an expression (`45 * 1024 / NAME = 11520` states the
# expression's value) nor one name of a tuple (`A x B x NAME = 256 x 256 x 64`).
CONSTANT_CLAIM_RE = re.compile(
    r"(?<![*/+\-,\w])(?<![*/+\-,x] )(?<!\u00d7 )`?\b([A-Z][A-Z0-9_]{2,})\b`?\s*(?:=|is|of|equals?|:|to)\s*`?"
    r"(\d+)\b(?!\s*(?:x|\u00d7|,\s*\d|[*/+\-]\s*\w))"
)
CODE_CONSTANT_RES = (
    re.compile(r"^\s*#\s*define\s+([A-Z][A-Z0-9_]*)\s+\(?\s*(\d+)[uUlL]*\s*\)?\s*$", re.MULTILINE),
    re.compile(
        r"\b(?:static\s+)?(?:constexpr|const)\s+(?:static\s+)?[\w:<>]+\s+([A-Za-z_]\w*)\s*=\s*(\d+)[uUlL]*\s*;"
    ),
)
TILING_ACCESS_RE = re.compile(r"\btiling(?:_?[Dd]ata)?(?:_|\b)\s*(?:\.|->)\s*(\w+)")
WORD_RE = re.compile(r"[A-Za-z_]\w*|\d+|\S")


def _in_code(name: str, code: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", code) is not None


def _closest(name: str, candidates: list[str]) -> str | None:
    """The candidate `name` most likely stands for: a few edits away, or a shortening of it."""
    scored = sorted((edit_distance(name, c, 4), c) for c in candidates if c != name)
    if scored and scored[0][0] <= max(1, len(name) // 3):
        return scored[0][1]
    longer = sorted(
        c for c in candidates if len(name) >= 4 and c.startswith(name) and len(c) - len(name) <= 4
    )
    return longer[0] if longer else None


def check_api_exists(unit: KernelUnit, reasoning: str, catalog: Catalog) -> Iterator[Diagnostic]:
    names = catalog.known_names()
    for m in api_mentions(reasoning):
        if m.name in names or _in_code(m.name, unit.code):
            continue
        if m.qualified:
            near_used = _closest(m.name, list(unit.apis))
            near = near_used or _closest(m.name, sorted(catalog.callable_names()))
        else:
            # unqualified: only a typo of an AscendC name counts (`CopyIn()` is the kernel's own
            # stage, not a misspelt `Copy`)
            near_used = closest(m.name, set(unit.apis), strict=True)
            near = near_used or closest(m.name, catalog.callable_names(), strict=True)
            if near is None:
                continue  # a helper name of the explanation, not an AscendC API
        shown = m.qualified or m.name
        hint = ""
        if near_used:
            hint = f"; the kernel uses `AscendC::{near_used}`"
        elif near:
            hint = f"; did you mean `AscendC::{near}`?"
        yield Diagnostic(
            "grounding.api_exists", "error", f"you named `{shown}`, which does not exist{hint}", "", m.line
        )


def check_api_used(unit: KernelUnit, reasoning: str, catalog: Catalog) -> Iterator[Diagnostic]:
    """An AscendC API stated as used (in an assertive clause) must be one the kernel calls."""
    callable_names = catalog.callable_names()
    used = set(unit.apis)
    index = ClauseIndex(reasoning)
    stated = [(m.name, m.qualified, m.offset) for m in api_mentions(reasoning)]
    stated += [(name, "", pos) for name, pos in bare_mentions(reasoning, callable_names)]
    stated += member_mentions(reasoning)
    seen: set[str] = set()
    for name, qualified, pos in sorted(stated, key=lambda s: s[2]):
        if name not in callable_names or name in used or name in seen or _in_code(name, unit.code):
            continue
        if not index.asserts(pos):
            continue
        seen.add(name)
        yield Diagnostic(
            "grounding.api_used",
            "error",
            f"`{qualified or name}` is not used by this kernel; explain the APIs it calls "
            f"({', '.join(sorted(used)[:8]) or 'none found'}) or say why `{name}` was rejected",
            "",
            line_of(reasoning, pos),
        )


def declared_depths(unit: KernelUnit) -> set[int]:
    """Every queue depth the code declares (a kernel may mix single- and double-buffered queues)."""
    constants = code_constants(unit.code)
    depths: set[int] = set()
    for regex in (_QUE_DEPTH_RE, _INIT_DEPTH_RE):
        for m in regex.finditer(unit.code):
            token = m.group(1)
            value = int(token) if token.isdigit() else constants.get(token)
            if value is not None and 0 < value <= 64:
                depths.add(value)
    return depths | ({unit.buffer_num} if unit.buffer_num > 0 else set())


def _other_level(clause: Clause | None, positions: set[str]) -> bool:
    """The sentence is about a memory level where the kernel declares no queue of its own (a
    parenthesis, "(depth 2 x stepKa)", belongs to the sentence's subject)."""
    if clause is None:
        return False
    for m in LEVEL_RE.finditer(clause.sentence):
        level = m.group(1)
        if not (LEVEL_POSITIONS.get(level, {level}) & positions):
            return True
    return False


def check_buffer_num(unit: KernelUnit, reasoning: str) -> Iterator[Diagnostic]:
    depths = declared_depths(unit)
    if not depths:
        return  # no queue depth known: nothing to hold a count against
    positions = set(unit.queue_positions)
    index = ClauseIndex(reasoning)
    for regex, fixed in BUFFER_CLAIMS:
        for m in regex.finditer(reasoning):
            stated = fixed if fixed is not None else int(m.group(1))
            if stated in depths or not index.asserts(m.start()):
                continue
            if _other_level(index.at(m.start()), positions):
                continue
            yield Diagnostic(
                "grounding.buffer_num",
                "error",
                f"the reasoning says {m.group(0)!r} ({stated} buffers), but the kernel's queues have "
                f"{' or '.join(map(str, sorted(depths)))}",
                "",
                line_of(reasoning, m.start()),
            )


def code_constants(code: str) -> dict[str, int]:
    values: dict[str, int] = {}
    for regex in CODE_CONSTANT_RES:
        for name, value in regex.findall(code):
            values.setdefault(name, int(value))
    return values


def _constant_claims(reasoning: str, defined: dict[str, int]) -> Iterator[re.Match[str]]:
    """`NAME = 128` claims; for a constant the code names in camelCase (`kBufNum`), only with `=`."""
    yield from CONSTANT_CLAIM_RE.finditer(reasoning)
    named = [n for n in defined if not n.isupper() and len(n) >= 4]
    if named:
        pattern = (
            r"(?<![*/+\-,\w.>])`?\b("
            + "|".join(map(re.escape, named))
            + r")\b`?\s*=\s*`?(\d+)\b(?!\s*(?:x|,\s*\d|[*/+\-]))"
        )
        yield from re.finditer(pattern, reasoning)


def check_constants(unit: KernelUnit, reasoning: str) -> Iterator[Diagnostic]:
    defined = code_constants(unit.code)
    for m in _constant_claims(reasoning, defined):
        name, stated = m.group(1), int(m.group(2))
        if name in defined and defined[name] != stated:
            yield Diagnostic(
                "grounding.constants",
                "error",
                f"the reasoning gives {name} = {stated}, but the code defines {name} = {defined[name]}",
                "",
                line_of(reasoning, m.start()),
            )


def kernel_positions(unit: KernelUnit) -> set[str]:
    """Positions the kernel's queues use, and any the code names (a framework kernel's templates)."""
    return set(unit.queue_positions) | set(POSITION_RE.findall(unit.code))


def check_queue_positions(unit: KernelUnit, reasoning: str) -> Iterator[Diagnostic]:
    """A buffer placed (in an assertive clause) at a position the kernel never uses; in a vector
    kernel, a memory level of the cube path (L1, L0A/B/C) too."""
    actual = kernel_positions(unit)
    vector_only = unit.core_type == "vector" and not (actual & CUBE_POSITIONS)
    if not actual and not vector_only:
        return
    index = ClauseIndex(reasoning)
    reported: set[str] = set()
    claims = [(m.group(1), m.start()) for m in POSITION_RE.finditer(reasoning)]
    if vector_only and not LEVEL_RE.search(unit.code):
        claims += [
            (m.group(1), m.start()) for m in LEVEL_RE.finditer(reasoning) if m.group(1) not in POSITIONS
        ]
    for position, pos in sorted(claims, key=lambda c: c[1]):
        if position in actual or position in reported or not index.asserts(pos):
            continue
        reported.add(position)
        where = ", ".join(sorted(actual)) or "the Unified Buffer only (a vector kernel)"
        yield Diagnostic(
            "grounding.queue_positions",
            "error",
            f"the reasoning places a buffer at {position}, but the kernel's queues and buffers are at {where}",
            "",
            line_of(reasoning, pos),
        )


def check_tiling_fields(unit: KernelUnit, reasoning: str) -> Iterator[Diagnostic]:
    fields = [f.name for f in unit.tiling_fields]
    if not fields:
        return
    known = set(fields)
    reported: set[str] = set()
    candidates: list[tuple[str, int]] = [
        (m.group(1), m.start()) for m in TILING_ACCESS_RE.finditer(reasoning)
    ]
    for span in CODE_SPAN_RE.finditer(reasoning):
        token = span.group(1).strip()
        if token.isidentifier() and _closest(token, fields):
            candidates.append((token, span.start()))
    for name, pos in candidates:
        if name in known or name in reported or _in_code(name, unit.code):
            continue
        reported.add(name)
        near = _closest(name, fields)
        hint = f"; did you mean `{near}`?" if near else f"; the fields are {', '.join(fields[:10])}"
        yield Diagnostic(
            "grounding.tiling_fields",
            "error",
            f"`{name}` is not a field of the kernel's tiling structure{hint}",
            "",
            line_of(reasoning, pos),
        )


def _shingles(text: str, n: int = 8) -> set[tuple[str, ...]]:
    tokens = WORD_RE.findall(text)
    return {tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}


def verbatim_overlap(reasoning: str, code: str) -> float:
    """Share of the answer's 8-token shingles that also occur in the reasoning."""
    code_sh = _shingles(re.sub(r"//[^\n]*|/\*.*?\*/", " ", code, flags=re.DOTALL))
    if len(code_sh) < 20:
        return 0.0
    return len(code_sh & _shingles(reasoning)) / len(code_sh)


def check_overlap(unit: KernelUnit, reasoning: str, max_overlap: float) -> Iterator[Diagnostic]:
    share = verbatim_overlap(reasoning, unit.code)
    if share > max_overlap:
        yield Diagnostic(
            "grounding.overlap",
            "error",
            f"the reasoning repeats {share:.0%} of the kernel code verbatim (limit {max_overlap:.0%}); "
            "explain the decisions instead of pasting the answer",
            "",
            0,
        )


def check_sections(reasoning: str, min_chars: int) -> Iterator[Diagnostic]:
    sections = reasoning_sections(reasoning)
    for key, heading in REASONING_SECTIONS:
        body = sections.get(key, "")
        if len(body) < min_chars:
            state = "missing" if not body else f"only {len(body)} characters long"
            yield Diagnostic(
                "grounding.sections", "error", f"the section `{key}` ({heading}) is {state}", "", 0
            )


GroundingCheck = Callable[[KernelUnit, str], Iterator[Diagnostic]]


def grounding_checks(
    catalog: Catalog, max_overlap: float, min_section_chars: int, min_specific: int = 3
) -> dict[str, GroundingCheck]:
    """Every grounding check by name, bound to its settings (the size bound runs before them,
    see `size_check`)."""
    return {
        "grounding.injection": lambda u, r: check_injection(r),
        "grounding.repetition": lambda u, r: check_repetition(r),
        "grounding.substance": lambda u, r: check_substance(u, r, min_specific),
        "grounding.api_exists": lambda u, r: check_api_exists(u, r, catalog),
        "grounding.api_used": lambda u, r: check_api_used(u, r, catalog),
        "grounding.buffer_num": check_buffer_num,
        "grounding.constants": check_constants,
        "grounding.queue_positions": check_queue_positions,
        "grounding.tiling_fields": check_tiling_fields,
        "grounding.overlap": lambda u, r: check_overlap(u, r, max_overlap),
        "grounding.sections": lambda u, r: check_sections(r, min_section_chars),
    }


def size_check(reasoning: str, max_chars: int) -> list[Diagnostic]:
    """The bound every verifier applies first: an oversized answer is judged on nothing else."""
    return list(check_size(reasoning, max_chars))


def code_blocks(reasoning: str) -> list[tuple[int, str]]:
    """Fenced code blocks of the reasoning: (line of the first code line, code)."""
    return [(line_of(reasoning, m.start(1)), m.group(1)) for m in FENCE_RE.finditer(reasoning)]
