"""Verification of knowledge answers against the one documentation chunk they are grounded in.

Named checks (an `error` rejects the item):
- `knowledge.api_exists`: every API the answer names (a CamelCase or `asc_` name called or in
  backticks) is defined by the chunk, appears in its text, or is in the API catalog;
- `knowledge.prototype`: every prototype the answer states for an API of the chunk equals one of
  the chunk's prototypes (whitespace folded);
- `knowledge.parameter`: every parameter the answer names (`x` in backticks followed by the word
  parameter, or `name:` in a parameter list) is a parameter of the chunk;
- `surface`: code blocks quoted in the answer type-check against the AscendC surface;
- `knowledge.paste`: the answer is not the chunk pasted (share of its word 8-grams found
  verbatim in the chunk at most `paste_ratio`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from schemas import Diagnostic, DocChunk

_BACKTICK = re.compile(r"`([^`\n]+)`")
# A called CamelCase or asc_ name. The name is one run of letters and digits (`(?:[A-Z][a-z0-9]+)+`
# then `[A-Za-z0-9]*` split a long word every way before failing: 3 s per 16 KB word), and no `\s*`
# stands on both sides of the optional template arguments.
_API_CALL = re.compile(r"\b([A-Z][a-z0-9][A-Za-z0-9]*+|asc_[a-z0-9_]++)\s*+(?:<[^<>()]*>\s*+)?\(")
_BACKTICKED_API = re.compile(r"[A-Z][a-z0-9]++[A-Z][a-z0-9][A-Za-z0-9]*+|asc_[a-z0-9_]+")  # two capitals
_PARAM_MENTION = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)`\s+(?:parameter|argument)", re.IGNORECASE)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# A declared name after its return type: tried once per word, for a word that holds `int` or ends
# with one of the other type words (what `(?:inline|void|int\w*|...|T)\s+` took from inside a
# word, as in `uint32_t` or `aT`); the old form tried `int\w*` from every `int` of a word and read
# the rest of the word each time (quadratic on `intintint...`).
_DECLARATION = re.compile(
    r"(?<!\w)(?=\w*?(?:int|(?:inline|void|bool|auto|float|half|T)(?!\w)))\w++\s+\**([A-Za-z_]\w*+)\s*\("
)
BlockCheck = Callable[[str, str], list[Diagnostic]]


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("( ", "(").replace(" )", ")")).strip().rstrip(";")


def code_blocks(answer: str) -> list[str]:
    """The bodies of the answer's fenced blocks: from the line after an opening fence of three
    backticks to the next fence. One scan: the pattern it replaces (a fence, `[^\n]*\n`, a lazy
    body, a fence), tried from every backtick of a long line of them, was quadratic."""
    blocks = []
    start = answer.find("```")
    while start >= 0:
        body = answer.find("\n", start + 3) + 1
        end = answer.find("```", body) if body else -1
        if end < 0:  # no later fence can be closed either
            break
        blocks.append(answer[body:end])
        start = answer.find("```", end + 3)
    return blocks


def named_apis(answer: str) -> set[str]:
    names = {m.group(1) for m in _API_CALL.finditer(answer)}
    for m in _BACKTICK.finditer(answer):
        token = m.group(1).strip().rstrip("()")
        if _BACKTICKED_API.fullmatch(token):
            names.add(token)
    return names


def stated_prototypes(answer: str, apis: Iterable[str]) -> list[str]:
    """Lines of code in the answer that declare one of the chunk's APIs (a return type before it)."""
    found = []
    wanted = set(apis)
    for block in code_blocks(answer) + [m.group(1) for m in _BACKTICK.finditer(answer)]:
        for line in block.splitlines():
            m = _DECLARATION.search(line)
            if m and m.group(1) in wanted:
                found.append(line.strip())
    return found


def pasted_share(answer: str, text: str, n: int = 8) -> float:
    words = re.findall(r"\w+", answer.lower())
    if len(words) < n:
        return 0.0
    source = " ".join(re.findall(r"\w+", text.lower()))
    grams = [" ".join(words[i : i + n]) for i in range(len(words) - n + 1)]
    return sum(1 for g in grams if g in source) / len(grams)


def verify_answer(
    chunk: DocChunk,
    question: str,
    answer: str,
    catalog_names: set[str],
    check_block: BlockCheck | None = None,
    paste_ratio: float = 0.6,
) -> list[Diagnostic]:
    del question
    out: list[Diagnostic] = []
    for name in sorted(named_apis(answer)):
        base = name.split("::")[-1]
        if base in chunk.apis or base in catalog_names or re.search(rf"\b{re.escape(base)}\b", chunk.text):
            continue
        out.append(
            Diagnostic(
                "knowledge.api_exists", "error", f"{name} is neither in the section nor in the API catalog"
            )
        )
    prototypes = {_fold(p) for block in chunk.prototypes for p in block.splitlines() if p.strip()}
    folded_text = _fold(chunk.text)
    for line in stated_prototypes(answer, chunk.apis):
        if _fold(line) not in prototypes and _fold(line) not in folded_text:
            out.append(
                Diagnostic("knowledge.prototype", "error", f"prototype not in the section: {line[:160]}")
            )
    params = {p.name for p in chunk.params}
    if params:
        for m in _PARAM_MENTION.finditer(answer):
            if m.group(1) not in params and not re.search(rf"\b{re.escape(m.group(1))}\b", chunk.text):
                out.append(
                    Diagnostic(
                        "knowledge.parameter", "error", f"parameter {m.group(1)} is not one of the section's"
                    )
                )
    if check_block is not None:
        for i, block in enumerate(code_blocks(answer)):
            if _API_CALL.search(block):
                out += check_block(block, f"answer_block_{i + 1}.cpp")
    share = pasted_share(answer, chunk.text)
    if share > paste_ratio:
        out.append(
            Diagnostic(
                "knowledge.paste",
                "error",
                f"{share:.0%} of the answer's 8-word runs are pasted from the section",
            )
        )
    return out


def surface_block_check() -> BlockCheck:
    """The surface verifier's block check (libclang against the AscendC surface headers)."""
    from annotate.reasoning.verifiers import SurfaceVerifier

    verifier = SurfaceVerifier()

    def check(block: str, name: str) -> list[Diagnostic]:
        return verifier.check_block(block, name)[0]

    return check


# A question, a reasoning and an answer need some substance before grounding means anything: a
# teacher that answers "..." to everything names no API, states no prototype and pastes nothing.
_WORD = re.compile(r"[A-Za-z]{2,}|[\u4e00-\u9fff]")
MIN_WORDS = {"question": 4, "reasoning": 8, "answer": 4}


def substance_checks(chunk: DocChunk, question: str, reasoning: str, answer: str) -> list[Diagnostic]:
    """Each part has at least a few words, and the item is about its section: it names one of the
    APIs the section defines (when it defines any) or a word of the section's title."""
    out: list[Diagnostic] = []
    parts = {"question": question, "reasoning": reasoning, "answer": answer}
    for part, text in parts.items():
        found = len(_WORD.findall(text))
        if found < MIN_WORDS[part]:
            out.append(
                Diagnostic(
                    "knowledge.substance",
                    "error",
                    f"the {part} has {found} words (at least {MIN_WORDS[part]})",
                )
            )
    everything = " ".join(parts.values()).lower()
    anchors = {a.split("::")[-1].lower() for a in chunk.apis}
    anchors |= {w.lower() for title in chunk.title_path for w in re.findall(r"[A-Za-z]{4,}", title)}
    if anchors and not any(re.search(rf"\b{re.escape(a)}\b", everything) for a in anchors):
        out.append(
            Diagnostic(
                "knowledge.on_topic",
                "error",
                "the item names none of the section's APIs or title words: " + ", ".join(sorted(anchors)[:6]),
            )
        )
    return out
