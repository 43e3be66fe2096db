"""Substance checks: a reasoning must be about THIS kernel, written for it, and of bounded size.

Measured on today's main before these checks, a server answering every section with `"x" * 20`,
with one generic sentence, or with injected text had every unit accepted, and a 10 MB answer too.
What is checked here, each with a diagnostic the teacher can act on:

- grounding.size        the answer is at most `max_chars` long (checked first, in linear time;
                        an oversized answer is judged on nothing else)
- grounding.injection   no text addressed to a model (role tags, "ignore previous instructions")
- grounding.repetition  no sentence repeated across sections, no section repeating another
- grounding.substance   every section names at least one of this unit's facts (an identifier of
                        its code, an API it calls, a tiling field, a queue position, an OpDef
                        tensor, a dtype it uses, a number of its code), and the answer as a whole
                        names at least `min_specific` facts that are not common to every kernel
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from annotate.reasoning.claims import prose, sentences
from schemas import Diagnostic, KernelUnit
from schemas.verdicts import REASONING_SECTIONS, reasoning_sections

# A role line (`system:`, `## assistant:`) is found from its own line's start, and `\s*#{0,3}\s*` is
# written `(?:#{1,3}\s*)?`: `^\s*` ran from every line start across all the blank lines after it
# (a reply of 25 KB of line breaks took more than 10 minutes).
INJECTION_RE = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)*(?:previous|prior|above|"
    r"earlier|preceding|system|former)\s+(?:instructions?|prompts?|messages?|rules|directions)|"
    r"<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id)\|>|\[/?INST\]|"
    r"<</?SYS>>|<start_of_turn>|<end_of_turn>|^[^\S\n]*(?:#{1,3}\s*)?(?:system|assistant|user|developer)\s*:|"
    r"\byou are (?:now )?(?:chatgpt|an? (?:ai|helpful|large language|language model|assistant))|"
    r"\bas an ai(?: language model)?\b|\b(?:accept|approve|pass|mark)\s+this\s+(?:answer|response|"
    r"reasoning|annotation)\b|\bnew instructions?\s*:|\bthe (?:verifier|grader|judge) (?:must|should)\b",
    re.IGNORECASE | re.MULTILINE,
)
IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NUMBER_RE = re.compile(r"(?<![\w.])(\d{2,})(?![\w.])")
# Names every AscendC kernel has: they show the writer knows AscendC, not that it read this kernel.
UBIQUITOUS = frozenset(
    [
        "DataCopy",
        "DataCopyPad",
        "EnQue",
        "DeQue",
        "AllocTensor",
        "FreeTensor",
        "InitBuffer",
        "SetGlobalBuffer",
        "GetBlockIdx",
        "GetBlockNum",
        "LocalTensor",
        "GlobalTensor",
        "TPipe",
        "TQue",
        "TBuf",
        "GM_ADDR",
        "uint32_t",
        "int32_t",
        "uint64_t",
        "int64_t",
        "uint8_t",
        "int8_t",
        "uint16_t",
        "int16_t",
        "half",
        "float",
        "bfloat16_t",
        "VECIN",
        "VECOUT",
        "VECCALC",
        "__aicore__",
        "__global__",
        "__gm__",
        "CopyIn",
        "CopyOut",
        "Compute",
        "Process",
        "Init",
        "GET_TILING_DATA",
        "BUFFER_NUM",
        "kernel_operator",
        "AscendC",
        "PipeBarrier",
        "PIPE_V",
        "PIPE_MTE2",
        "PIPE_MTE3",
        "PIPE_ALL",
        "TPosition",
        "QuePosition",
        "workspace",
        "tiling",
        "GetTensor",
        "KERNEL_TYPE_AIV_ONLY",
        "KERNEL_TASK_TYPE_DEFAULT",
        "TILING_KEY_IS",
        "blockDim",
        "GetSubBlockIdx",
    ]
)
DTYPE_WORDS = {
    "half": "half",
    "float16": "half",
    "fp16": "half",
    "float": "float",
    "float32": "float",
    "fp32": "float",
    "bfloat16": "bfloat16",
    "bf16": "bfloat16",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "uint32": "uint32",
    "bool": "bool",
}
_SENTENCE_MIN_CHARS = 40  # shorter sentences ("No tail.") may repeat honestly
_MAX_SHOWN = 6


@dataclass(frozen=True, slots=True)
class UnitFacts:
    names: frozenset[str]  # identifiers of the code, APIs, tiling fields, tensors, positions
    specific: frozenset[str]  # ... of them, the ones not common to every kernel
    dtypes: frozenset[str]  # canonical dtypes the code or OpDef uses
    numbers: frozenset[str]  # numbers of two or more digits written in the code


def _distinctive(name: str) -> bool:
    """An identifier that is a name, not an English word: camelCase, snake_case, digits, CAPS."""
    return len(name) >= 3 and (
        "_" in name.strip("_") or any(c.isdigit() for c in name) or any(c.isupper() for c in name[1:])
    )


def unit_facts(unit: KernelUnit) -> UnitFacts:
    code = unit.code + "\n" + (unit.host_code or "")
    names = {n for n in IDENT_RE.findall(code) if _distinctive(n)}
    names |= set(unit.apis) | {f.name for f in unit.tiling_fields} | set(unit.queue_positions)
    names |= {unit.kernel_name, unit.op_name, unit.tiling_struct} - {""}
    if unit.op_def is not None:
        declared = [t.name for t in [*unit.op_def.inputs, *unit.op_def.outputs]]
        declared += [a.name for a in unit.op_def.attrs]
        names |= {n for n in declared if len(n) >= 2}
    names |= {c.name for c in unit.kernel_classes}
    lowered = code.lower()
    dtypes = {canon for word, canon in DTYPE_WORDS.items() if re.search(rf"\b{word}", lowered)}
    if unit.op_def is not None:
        for spec in [*unit.op_def.inputs, *unit.op_def.outputs]:
            for d in spec.dtypes:
                key = d.lower().removeprefix("dt_")
                if key in DTYPE_WORDS:
                    dtypes.add(DTYPE_WORDS[key])
    numbers = frozenset(NUMBER_RE.findall(code))
    specific = frozenset(n for n in names if n not in UBIQUITOUS and not n.startswith("__"))
    return UnitFacts(frozenset(names), specific, frozenset(dtypes), numbers)


def named_facts(text: str, facts: UnitFacts) -> tuple[set[str], set[str]]:
    """(facts of the unit a text names, of them the specific ones)."""
    words = set(IDENT_RE.findall(text))
    found = words & facts.names
    found |= {f"dtype {DTYPE_WORDS[w.lower()]}" for w in words if DTYPE_WORDS.get(w.lower()) in facts.dtypes}
    found |= {f"number {n}" for n in NUMBER_RE.findall(text) if n in facts.numbers}
    return found, words & facts.specific


def check_size(reasoning: str, max_chars: int) -> Iterator[Diagnostic]:
    if len(reasoning) > max_chars:
        yield Diagnostic(
            "grounding.size",
            "error",
            f"the answer is {len(reasoning):,} characters long (limit {max_chars:,}); explain the kernel "
            "in a few paragraphs per section",
            "",
            0,
        )


def check_injection(reasoning: str) -> Iterator[Diagnostic]:
    for m in INJECTION_RE.finditer(reasoning):
        yield Diagnostic(
            "grounding.injection",
            "error",
            f"the answer contains text addressed to a model or a grader ({m.group(0).strip()!r}); write "
            "only the explanation of the kernel",
            "",
            reasoning.count("\n", 0, m.start()) + 1,
        )
        return


def _normal(sentence: str) -> str:
    return re.sub(r"\s+", " ", sentence.lower()).strip(" .")


def check_repetition(reasoning: str) -> Iterator[Diagnostic]:
    """A sentence said twice, in two sections or twice in one, is padding."""
    sections = reasoning_sections(reasoning)
    seen: dict[str, str] = {}
    reported: set[str] = set()
    for key, body in sections.items():
        for sentence in (_normal(s) for s in sentences(body)):
            if len(sentence) < _SENTENCE_MIN_CHARS:
                continue
            first = seen.setdefault(sentence, "")
            seen[sentence] = key
            if not first or sentence in reported:
                continue
            reported.add(sentence)
            where = f"the section `{key}`" if first == key else f"the sections `{first}` and `{key}`"
            yield Diagnostic(
                "grounding.repetition",
                "error",
                f"{where} repeat the same sentence ({sentence[:80]!r}); each section must say what is "
                "specific to its topic for this kernel",
                "",
                0,
            )


def check_substance(unit: KernelUnit, reasoning: str, min_specific: int) -> Iterator[Diagnostic]:
    facts = unit_facts(unit)
    sections = reasoning_sections(reasoning)
    specific_all: set[str] = set()
    examples = ", ".join(f"`{n}`" for n in sorted(facts.specific)[:_MAX_SHOWN]) or "its APIs and fields"
    for key, _heading in REASONING_SECTIONS:
        body = sections.get(key, "")
        if not body:
            continue  # grounding.sections reports it
        found, specific = named_facts(prose(body), facts)
        specific_all |= specific
        if not found:
            yield Diagnostic(
                "grounding.substance",
                "error",
                f"the section `{key}` names none of this kernel's facts (identifiers, APIs, tiling fields, "
                f"queue positions, dtypes, constants); say what THIS kernel does there, e.g. with {examples}",
                "",
                0,
            )
    needed = min(min_specific, len(facts.specific))
    if sections and len(specific_all) < needed:
        yield Diagnostic(
            "grounding.substance",
            "error",
            f"the answer names {len(specific_all)} facts specific to this kernel (need {needed}); generic "
            f"AscendC prose fits any kernel: name this one's own, e.g. {examples}",
            "",
            0,
        )
