"""Which parts of a reasoning claim something about THIS kernel.

A reasoning section is a paragraph, so checking a fact per line (and excusing the line when one
of a few phrases sits anywhere on it) both flags what the writer denied ("no L0C double
buffering", "double buffering would bring nothing") and excuses what it asserted next to an
unrelated "without". The unit here is the clause: the prose is cut into sentences, sentences into
clauses (at `;`, `:`, parentheses, dashes, conjunctions that start a new statement: "but",
"while", "whereas", "so", "because", "since", "which", ", and", and before an adjunct introduced
by a comma: ", without ...", ", not ...", ", unlike ..."), and each clause is judged on its own:

- negated: "no", "not", "never", "without", "n't", "neither/nor", "nothing", "none", "avoid",
  "unnecessary", "reject(ed)", "instead of", "rather than", "unlike", "is useless" ...
- modal or proposed: "would", "could", "might", "may", "should", "a ... version", "alternative",
  "if ... were", "consider", "option" ...: what another kernel could do, not what this one does;
- comparative or general: "than", "compared with", "versus", "other kernels", "in general",
  "typically", "e.g." ...

Only a mention in an assertive clause is a claim. Code blocks are not prose (the surface verifier
checks them); inline code spans stay part of their clause.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass

FENCE_RE = re.compile(r"^```[^\n]*\n.*?^```[ \t]*$", re.DOTALL | re.MULTILINE)
# A sentence ends at . ! ? followed by space and a capital, a backtick, a digit or an opening
# bracket (not "e.g. x", not "1.5", not `a.b`), or at a line break.
_SENTENCE_END_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\"'0-9*-])|\n+")
# Words that open a clause after a comma or a space.
_CONNECTIVES = (
    r"\b(?:but|while|whereas|so that|so|because|since|which|and then|though|although|unless|"
    r"otherwise|yet|hence|thus|therefore)\b\s+"
)
# An alternative that opens with spaces is tried only where a run of them starts (`(?<!\s)`); the
# delimiters it could also match without them have their own alternative. The same matches, but a
# run of 5,000 spaces was otherwise scanned from each of its characters by each such alternative
# (over 90 s for one clause; found by helper redos).
_CLAUSE_SPLIT_RE = re.compile(
    r"[;()\[\]]\s*|(?<!\s)\s+[;()\[\]]\s*|:\s+|(?<!\s)\s+[-\u2013\u2014]{1,2}\s+|,\s+and\s+"
    r"|,\s+(?=(?:without|with|unlike|instead|rather|except|not|no|never|nor)\b)"
    rf"|,\s+{_CONNECTIVES}|(?<!\s)\s+{_CONNECTIVES}",
    re.IGNORECASE,
)
NEGATION_RE = re.compile(
    r"\bno\b|\bnot\b|\bnever\b|\bwithout\b|n't\b|\bneither\b|\bnor\b|\bnothing\b|\bnone\b|\bavoid|"
    r"\bunnecessar|\bneedless|\buseless|\bpointless|\breject|\bdiscard|\binstead\b|\brather than\b|"
    r"\bunlike\b|\bno need\b|\bomit|\bdrop(?:s|ped)?\b|\bskip|\bin place of\b|\bnot an? option\b|"
    r"\bnor\b|\bcannot\b|\bcan't\b|\bunused\b|\bisn't\b|\bwasn't\b|\baren't\b|\bdoesn't\b|\bdon't\b|"
    r"\bno longer\b|\bfalse\b|\bmisleading\b|\bwrong\b",
    re.IGNORECASE,
)
MODAL_RE = re.compile(
    r"\bwould\b|\bcould\b|\bmight\b|\bmay\b|\bshould\b|\bcan be\b|\bif\b|\bwhether\b|\bwere\b|"
    r"\balternative|\bconsider|\boption|\bpropos|\bsuggest|\bimprove|\bvariant|\bversion\b|"
    r"\bfuture\b|\bhypothetic|\bimagine|\bsuppose|\bpossible|\bpossibly\b|\bpotential|\btrade-?off",
    re.IGNORECASE,
)
GENERAL_RE = re.compile(
    r"\bthan\b|\bcompared (?:to|with)\b|\bversus\b|\bvs\.?\b|\bother (?:kernels?|operators?|ops)\b|"
    r"\bin general\b|\bgenerally\b|\btypically\b|\busually\b|\boften\b|\be\.g\.|\bfor example\b|"
    r"\bsuch as\b|\bcommon(?:ly)?\b|\bmany\b|\bsome kernels\b|\belsewhere\b|\bcube kernels?\b|"
    r"\bvector kernels?\b|\bmatmul kernels?\b|\bother socs?\b|\bon (?:older|newer)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Clause:
    text: str
    start: int  # offset of the clause in the reasoning
    line: int  # 1-based line of the clause's start
    assertive: bool  # a claim about this kernel (not negated, modal, proposed or comparative)
    sentence: str = ""  # the whole sentence the clause belongs to


def prose(reasoning: str) -> str:
    """The reasoning with fenced code blocks blanked (same length, so offsets stay valid)."""
    return FENCE_RE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), reasoning)


_SPAN_RE = re.compile(r"`[^`\n]*`")


def _pieces(text: str, start: int, pattern: re.Pattern[str]) -> Iterator[tuple[int, str]]:
    """Pieces of `text` between matches of `pattern`; inline code spans are never cut."""
    masked = _SPAN_RE.sub(lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", text)
    pos = 0
    for m in pattern.finditer(masked):
        if m.start() > pos:
            yield start + pos, text[pos : m.start()]
        pos = m.end()
    if pos < len(text):
        yield start + pos, text[pos:]


def is_assertive(clause: str) -> bool:
    """A clause that states something about the kernel at hand."""
    return not (NEGATION_RE.search(clause) or MODAL_RE.search(clause) or GENERAL_RE.search(clause))


@functools.lru_cache(maxsize=8)
def clauses(reasoning: str) -> tuple[Clause, ...]:
    """Every clause of the reasoning's prose with its offset, line and whether it asserts (kept
    for the last few reasonings: several checks read the same one)."""
    text = prose(reasoning)
    line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
    found: list[Clause] = []
    line = 0
    for s_start, sentence in _pieces(text, 0, _SENTENCE_END_RE):
        if sentence.lstrip().startswith("## "):
            continue
        for c_start, clause in _pieces(sentence, s_start, _CLAUSE_SPLIT_RE):
            if not clause.strip():
                continue
            while line + 1 < len(line_starts) and line_starts[line + 1] <= c_start:
                line += 1
            found.append(Clause(clause, c_start, line + 1, is_assertive(clause), sentence))
    return tuple(found)


def sentences(text: str) -> list[str]:
    """The sentences of a prose text (fenced code left out), stripped."""
    return [s.strip() for _, s in _pieces(prose(text), 0, _SENTENCE_END_RE) if s.strip()]
