"""What a reasoning names, and where: AscendC APIs (qualified, in code spans, as capitalised
names in prose, as methods of objects) and the clause around any offset (claims.py decides
whether that clause asserts anything about the kernel)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from annotate.reasoning.claims import Clause, clauses, prose

QUALIFIED_RE = re.compile(r"\bAscendC::((?:\w+::)*)(\w+)")
CODE_SPAN_RE = re.compile(r"`([^`\n]+)`")
SPAN_NAME_RE = re.compile(r"(?:^|[^\w:.>])([A-Z][A-Za-z0-9_]*)\s*(?:<[^<>`]*>)?\s*(?:\(|$)")
LEVEL_RE = re.compile(r"\b(L1|L0A|L0B|L0C|L0|A1|A2|B1|B2|C1|C2|CO1|CO2)\b")
# A capitalised word in prose that may be an API name (`Sort`, `WholeReduceMax`).
BARE_NAME_RE = re.compile(r"(?<![\w:.`>])([A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)*)\b(?![\w`])")
# English words the catalog also holds: only an API when written as code.
PROSE_WORDS = frozenset(
    [
        "Init",
        "Process",
        "Compute",
        "Copy",
        "Vector",
        "Cube",
        "Scalar",
        "Tensor",
        "Buffer",
        "Queue",
        "Pipe",
        "Global",
        "Local",
        "Host",
        "Kernel",
        "Core",
        "Block",
        "Tile",
        "Tiling",
        "Data",
        "Fill",
        "Set",
        "Get",
        "Reset",
        "Wait",
        "Free",
        "Load",
        "Store",
        "Select",
        "Compare",
        "Sum",
        "Max",
        "Min",
        "Mean",
        "Duplicate",
        "Not",
        "Or",
        "And",
        "Cast",
        "Reduce",
        "Transpose",
        "Broadcast",
    ]
)


@dataclass(frozen=True, slots=True)
class Mention:
    name: str
    qualified: str  # "AscendC::Add" when written qualified, else ""
    line: int
    context: str  # the line it appears on
    offset: int = 0  # where it appears in the reasoning


def line_of(text: str, pos: int) -> int:
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
                line_of(reasoning, m.start()),
                _line_at(reasoning, m.start()),
                m.start(),
            )
        )
    for span in CODE_SPAN_RE.finditer(reasoning):
        for m in SPAN_NAME_RE.finditer(span.group(1)):
            if "AscendC::" + m.group(1) in span.group(1):
                continue
            found.append(
                Mention(
                    m.group(1),
                    "",
                    line_of(reasoning, span.start()),
                    _line_at(reasoning, span.start()),
                    span.start() + 1 + m.start(1),
                )
            )
    return found


class ClauseIndex:
    """The clause around any offset of a reasoning."""

    def __init__(self, reasoning: str) -> None:
        self.items: tuple[Clause, ...] = clauses(reasoning)
        self.starts = [c.start for c in self.items]

    def at(self, pos: int) -> Clause | None:
        i = bisect.bisect_right(self.starts, pos) - 1
        if i < 0:
            return None
        clause = self.items[i]
        return clause if pos < clause.start + len(clause.text) else None

    def asserts(self, pos: int) -> bool:
        """Whether the text at `pos` is stated as a fact of this kernel (code blocks never are)."""
        clause = self.at(pos)
        return clause is not None and clause.assertive


def _sentence_start(text: str, pos: int) -> bool:
    before = text[max(0, pos - 3) : pos].rstrip(" *_")
    return not before or before[-1] in ".!?:\n#-"


def bare_mentions(reasoning: str, names: set[str]) -> list[tuple[str, int]]:
    """Catalog names written as plain words in the prose: `Sort` mid-sentence, `WholeReduceMax`
    anywhere; a one-hump word that starts a sentence or is an English word is left out."""
    text = prose(reasoning)
    found: list[tuple[str, int]] = []
    for m in BARE_NAME_RE.finditer(text):
        name = m.group(1)
        if name not in names or name in PROSE_WORDS or LEVEL_RE.fullmatch(name):
            continue
        humps = sum(c.isupper() for c in name)
        if humps == 1 and _sentence_start(text, m.start()):
            continue
        found.append((name, m.start()))
    return found


MEMBER_RE = re.compile(r"(?:\.|->)\s*([A-Z]\w*)\b")


def member_mentions(reasoning: str) -> list[tuple[str, str, int]]:
    """Methods called in code spans (`pipe->FetchEventID(...)`, `que.AllocTensor<T>()`): an API
    of an AscendC object the kernel would have to call."""
    found: list[tuple[str, str, int]] = []
    for span in CODE_SPAN_RE.finditer(reasoning):
        for m in MEMBER_RE.finditer(span.group(1)):
            found.append((m.group(1), "", span.start() + 1 + m.start(1)))
    return found
