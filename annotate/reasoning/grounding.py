"""Grounding checks: does the teacher's reasoning agree with the real kernel it explains?

Each check is a small function over the reasoning text and the unit's parsed facts, yielding
diagnostics under its own name:

- grounding.api_exists       every AscendC API the reasoning names exists in the catalog
- grounding.api_used         ... and the kernel uses it, unless the reasoning says it was rejected
- grounding.buffer_num       stated buffer counts (double buffering, BUFFER_NUM = 2) match the queues
- grounding.constants        `NAME = 128` stated for a constant the code defines matches its value
- grounding.queue_positions  queue positions named (VECIN, A1, ...) are positions the kernel uses
- grounding.tiling_fields    tiling fields named exist in the kernel's tiling structure
- grounding.overlap          the reasoning does not paste the answer (bounded verbatim overlap)
- grounding.sections         the required sections are present and not trivially short

The code-snippet type check lives in the surface verifier (it needs clang); see verifiers.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from annotate.checker.classify import closest, edit_distance
from schemas import Diagnostic, KernelUnit
from schemas.ascendc.catalog import Catalog
from schemas.verdicts import REASONING_SECTIONS, reasoning_sections

QUALIFIED_RE = re.compile(r"\bAscendC::((?:\w+::)*)(\w+)")
CODE_SPAN_RE = re.compile(r"`([^`\n]+)`")
FENCE_RE = re.compile(r"^```[^\n]*\n(.*?)^```", re.DOTALL | re.MULTILINE)
SPAN_NAME_RE = re.compile(r"(?:^|[^\w:.>])([A-Z][A-Za-z0-9_]*)\s*(?:<[^<>`]*>)?\s*(?:\(|$)")
REJECTION_RE = re.compile(
    r"instead of|rather than|\bnot (?:use|used|needed|required|necessary)\b|\b(?:does|do|did)n'?t use|"
    r"\bdoes not\b|\bavoid|\bunlike\b|\breject|\balternative|\bwould (?:need|have|be)|\bcould (?:have|use)|"
    r"\bunnecessary|\bno need\b|\bwithout\b|\bnot an? option|\bdiscard",
    re.IGNORECASE,
)
POSITIONS = ("VECIN", "VECOUT", "VECCALC", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "TSCM")
POSITION_RE = re.compile(r"\b(?:(?:QuePosition|TPosition)::)?(" + "|".join(POSITIONS) + r")\b")
BUFFER_CLAIMS = (
    (re.compile(r"\bBUFFER_NUM\s*(?:=|is|of|equals?|:|to)\s*(\d+)", re.IGNORECASE), None),
    (re.compile(r"\bdouble[- ]buffer(?:s|ing|ed)?\b", re.IGNORECASE), 2),
    (re.compile(r"\bsingle[- ]buffer(?:s|ing|ed)?\b", re.IGNORECASE), 1),
    (re.compile(r"\btriple[- ]buffer(?:s|ing|ed)?\b", re.IGNORECASE), 3),
    (re.compile(r"\b(?:queue )?depth (?:of )?(\d+)\b", re.IGNORECASE), None),
    (re.compile(r"\b(\d+) (?:ping-pong )?buffers (?:per|in each|for each) queue\b", re.IGNORECASE), None),
)
CONSTANT_CLAIM_RE = re.compile(r"`?\b([A-Z][A-Z0-9_]{2,})\b`?\s*(?:=|is|of|equals?|:|to)\s*`?(\d+)\b")
CODE_CONSTANT_RES = (
    re.compile(r"^\s*#\s*define\s+([A-Z][A-Z0-9_]*)\s+\(?\s*(\d+)[uUlL]*\s*\)?\s*$", re.MULTILINE),
    re.compile(r"\b(?:constexpr|const)\s+[\w:<>]+\s+([A-Z][A-Z0-9_]*)\s*=\s*(\d+)[uUlL]*\s*;"),
)
TILING_ACCESS_RE = re.compile(r"\btiling(?:_?[Dd]ata)?(?:_|\b)\s*(?:\.|->)\s*(\w+)")
WORD_RE = re.compile(r"[A-Za-z_]\w*|\d+|\S")


@dataclass(frozen=True, slots=True)
class Mention:
    name: str
    qualified: str  # "AscendC::Add" when written qualified, else ""
    line: int
    context: str  # the line it appears on


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _line_at(text: str, pos: int) -> str:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return text[start : end if end >= 0 else len(text)]


def api_mentions(reasoning: str) -> list[Mention]:
    """AscendC names the reasoning uses: written `AscendC::X`, or as code (`X(...)`, `X<...>`)."""
    found: list[Mention] = []
    for m in QUALIFIED_RE.finditer(reasoning):
        found.append(
            Mention(
                m.group(2),
                f"AscendC::{m.group(1)}{m.group(2)}",
                _line_of(reasoning, m.start()),
                _line_at(reasoning, m.start()),
            )
        )
    for span in CODE_SPAN_RE.finditer(reasoning):
        for m in SPAN_NAME_RE.finditer(span.group(1)):
            if "AscendC::" + m.group(1) in span.group(1):
                continue
            found.append(
                Mention(m.group(1), "", _line_of(reasoning, span.start()), _line_at(reasoning, span.start()))
            )
    return found


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
    callable_names = catalog.callable_names()
    used = set(unit.apis)
    seen: set[str] = set()
    for m in api_mentions(reasoning):
        if m.name not in callable_names or m.name in used or _in_code(m.name, unit.code) or m.name in seen:
            continue
        if REJECTION_RE.search(m.context):
            continue
        seen.add(m.name)
        yield Diagnostic(
            "grounding.api_used",
            "error",
            f"`{m.qualified or m.name}` is not used by this kernel; explain the APIs it calls "
            f"({', '.join(sorted(used)[:8]) or 'none found'}) or say why `{m.name}` was rejected",
            "",
            m.line,
        )


def check_buffer_num(unit: KernelUnit, reasoning: str) -> Iterator[Diagnostic]:
    if unit.buffer_num <= 0:
        return
    for regex, fixed in BUFFER_CLAIMS:
        for m in regex.finditer(reasoning):
            stated = fixed if fixed is not None else int(m.group(1))
            if stated != unit.buffer_num and not REJECTION_RE.search(_line_at(reasoning, m.start())):
                yield Diagnostic(
                    "grounding.buffer_num",
                    "error",
                    f"the reasoning says {m.group(0)!r} ({stated} buffers), but the kernel's queues have "
                    f"{unit.buffer_num}",
                    "",
                    _line_of(reasoning, m.start()),
                )


def code_constants(code: str) -> dict[str, int]:
    values: dict[str, int] = {}
    for regex in CODE_CONSTANT_RES:
        for name, value in regex.findall(code):
            values.setdefault(name, int(value))
    return values


def check_constants(unit: KernelUnit, reasoning: str) -> Iterator[Diagnostic]:
    defined = code_constants(unit.code)
    for m in CONSTANT_CLAIM_RE.finditer(reasoning):
        name, stated = m.group(1), int(m.group(2))
        if name in defined and defined[name] != stated:
            yield Diagnostic(
                "grounding.constants",
                "error",
                f"the reasoning gives {name} = {stated}, but the code defines {name} = {defined[name]}",
                "",
                _line_of(reasoning, m.start()),
            )


def check_queue_positions(unit: KernelUnit, reasoning: str) -> Iterator[Diagnostic]:
    if not unit.queue_positions:
        return
    actual = set(unit.queue_positions)
    reported: set[str] = set()
    for m in POSITION_RE.finditer(reasoning):
        position = m.group(1)
        if position in actual or position in reported or REJECTION_RE.search(_line_at(reasoning, m.start())):
            continue
        reported.add(position)
        yield Diagnostic(
            "grounding.queue_positions",
            "error",
            f"the reasoning places a buffer at {position}, but the kernel's queues and buffers are at "
            f"{', '.join(sorted(actual))}",
            "",
            _line_of(reasoning, m.start()),
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
            _line_of(reasoning, pos),
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
    catalog: Catalog, max_overlap: float, min_section_chars: int
) -> dict[str, GroundingCheck]:
    """Every grounding check by name, bound to its settings."""
    return {
        "grounding.api_exists": lambda u, r: check_api_exists(u, r, catalog),
        "grounding.api_used": lambda u, r: check_api_used(u, r, catalog),
        "grounding.buffer_num": check_buffer_num,
        "grounding.constants": check_constants,
        "grounding.queue_positions": check_queue_positions,
        "grounding.tiling_fields": check_tiling_fields,
        "grounding.overlap": lambda u, r: check_overlap(u, r, max_overlap),
        "grounding.sections": lambda u, r: check_sections(r, min_section_chars),
    }


def code_blocks(reasoning: str) -> list[tuple[int, str]]:
    """Fenced code blocks of the reasoning: (line of the first code line, code)."""
    return [(_line_of(reasoning, m.start(1)), m.group(1)) for m in FENCE_RE.finditer(reasoning)]
