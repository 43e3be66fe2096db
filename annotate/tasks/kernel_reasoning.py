"""The kernel-reasoning task (`KernelReasoningTask`, the contract of `annotate.tasks`): the
prompt for one kernel unit, the parsing of the teacher's answer into reasoning sections, and its
verification by the [verify] verifiers. No I/O, no transport: the loop sends the messages and
hands the reply back here.

The teacher sees the real kernel (reverse chain-of-thought) and writes the reasoning that leads
from an *instruction* to it. The instruction is built here from the facts the parser extracted
(operator, entry signature, OpDef tensors and dtypes, tiling fields, core type) and the
operator's own documentation (annotate/statement.py), never from the code body, so it is what a developer would be handed before writing the kernel.

Repository content is data: it goes inside <kernel_code>/<host_code> tags (with any closing tag
inside it neutralised), and `parse` accepts only the answer schema, whatever the code asked for.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from annotate.prompts import PROMPT_VERSION, render
from annotate.requirements import requirements
from annotate.statement import covered_names, statement
from annotate.tasks import JournalRow, Message, Prompt, TaskParseError, Verdict
from annotate.teacher import TeacherReply
from schemas import Diagnostic, KernelUnit
from schemas.nesting import loads_json
from schemas.verdicts import REASONING_SECTIONS, Verifier, run_verifiers

SECTION_KEYS = tuple(key for key, _ in REASONING_SECTIONS)
# Per-section length bound in the compact JSON grammar: 7 sections x 300 chars stay under the
# local teacher's max_tokens, so a grammar-constrained answer always closes its JSON.
COMPACT_SECTION_CHARS = 300
_CORE_DESC = {"vector": "vector cores (AIV)", "cube": "cube cores (AIC)", "mixed": "cube and vector cores"}


def prompt_version(style: str) -> str:
    """The recorded prompt version: template set and style, e.g. "v1-full"."""
    return f"{PROMPT_VERSION}-{style}"


# -- the instruction --------------------------------------------------------------------------


def entry_signature(unit: KernelUnit) -> str:
    params = ", ".join(f"{p.type} {p.name}".strip() for p in unit.params)
    head = "__global__ __aicore__ void"
    if unit.template_params:
        tparams = ", ".join(f"{p.type} {p.name}".strip() for p in unit.template_params)
        head = f"template <{tparams}> {head}"
    return f"{head} {unit.kernel_name}({params})"


def _tensor_line(kind: str, spec: Any) -> str:
    dtypes = ", ".join(spec.dtypes) or "dtype not stated"
    formats = f" ({', '.join(spec.formats)})" if spec.formats else ""
    optional = " optional" if spec.param_type.upper() == "OPTIONAL" else ""
    return f"- {kind}{optional} `{spec.name}`: {dtypes}{formats}"


def _fact_lines(unit: KernelUnit, documented: bool = False) -> list[str]:
    lines = [f"Entry point: `{entry_signature(unit)}`."]
    if unit.op_def is not None:
        if not documented:  # a documented statement already lists the tensors (OpDef dtypes)
            lines += [_tensor_line("input", spec) for spec in unit.op_def.inputs]
            lines += [_tensor_line("output", spec) for spec in unit.op_def.outputs]
        stated = covered_names(unit) if documented else set()
        lines += [f"- attribute `{a.name}`: {a.type}" for a in unit.op_def.attrs if a.name not in stated]
        if unit.op_def.socs:
            lines.append(f"Target SoCs: {', '.join(unit.op_def.socs)}.")
    if unit.tiling_fields:
        fields = ", ".join(
            f"{f.name} ({f.type}{f'[{f.array_size}]' if f.array_size else ''})" for f in unit.tiling_fields
        )
        struct = f" `{unit.tiling_struct}`" if unit.tiling_struct else ""
        lines.append(f"The host passes tiling data{struct} with the fields: {fields}.")
    if unit.tiling_keys:
        lines.append(f"The kernel branches on tiling keys {', '.join(map(str, unit.tiling_keys))}.")
    if unit.host_tiling:
        lines.append(f"The host-side tiling function is `{unit.host_tiling}`.")
    lines.append(f"Category: {unit.category}, difficulty level {unit.level}.")
    return lines


def build_instruction(unit: KernelUnit) -> str:
    """The task a kernel developer would be given for this unit: what to compute (from the
    operator's documentation when it has one that agrees with its OpDef) and the parsed facts;
    never code."""
    return instruction_and_semantics(unit)[0]


def instruction_and_semantics(unit: KernelUnit) -> tuple[str, str]:
    """(instruction, semantics): semantics is documented | undocumented | rejected."""
    stated = statement(unit)
    documented = stated.semantics == "documented"
    semantics = "\n".join(stated.lines) if documented else render("undocumented_note")
    text = render(
        "instruction",
        kernel_name=unit.kernel_name,
        op_name=unit.op_name or unit.kernel_name,
        core_desc=_CORE_DESC.get(unit.core_type, unit.core_type),
        semantics=semantics,
        facts="\n".join(_fact_lines(unit, documented)),
        requirements=requirements(unit),
    )
    return text, stated.semantics


# -- the code as prompt data ------------------------------------------------------------------

_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_LINE_COMMENT_RUN = re.compile(r"(?:^[ \t]*//.*(?:\n|\Z))+", re.MULTILINE)
_LICENCE_WORDS = re.compile(r"copyright|licen[cs]e|all rights reserved", re.IGNORECASE)
_FILE_MARKER = re.compile(r"^// ---- .* ----$", re.MULTILINE)  # parsers' marker between assembled files


def _drop_if_licence(match: re.Match[str]) -> str:
    text = match.group(0)
    if not _LICENCE_WORDS.search(text):
        return text
    markers = _FILE_MARKER.findall(text)  # keep the file markers of assembled units
    return "".join(f"{m}\n" for m in markers)


def drop_licence_comments(code: str) -> str:
    """Licence headers are long, identical boilerplate: they cost context and teach nothing."""
    if not _LICENCE_WORDS.search(code):
        return code.strip("\n")
    # Only the text up to the last `*/` is searched: past it, each `/*` would scan to the end in
    # vain (16 KB of unclosed `/*` took 0.3 s; 100 KB, 12 s).
    end = code.rfind("*/") + 2 if "*/" in code else 0
    code = _BLOCK_COMMENT.sub(_drop_if_licence, code[:end]) + code[end:]
    code = _LINE_COMMENT_RUN.sub(_drop_if_licence, code)
    return re.sub(r"\n{3,}", "\n\n", code).strip("\n")


def shorten_code(code: str, max_chars: int) -> tuple[str, int]:
    """The code without licence headers, cut to `max_chars` by omitting middle lines (compact
    prompts only: the full prompt shows the whole unit).

    Returns (text, omitted line count). The head (includes, tiling, class layout, Init) and the
    tail (the entry function, which follows the class in most kernels) carry the most meaning.
    """
    text = drop_licence_comments(code)
    if len(text) <= max_chars:
        return text, 0
    lines = text.splitlines()
    head: list[str] = []
    tail: list[str] = []
    budget_head, budget_tail = int(max_chars * 0.65), int(max_chars * 0.35)
    used = 0
    for line in lines:
        if used + len(line) + 1 > budget_head:
            break
        head.append(line)
        used += len(line) + 1
    used = 0
    for line in reversed(lines[len(head) :]):
        if used + len(line) + 1 > budget_tail:
            break
        tail.append(line)
        used += len(line) + 1
    tail.reverse()
    omitted = len(lines) - len(head) - len(tail)
    return "\n".join([*head, f"// ... [{omitted} lines omitted]", *tail]), omitted


def as_data(text: str, tag: str) -> str:
    """Keep repository text inside its tag: a closing tag in the code cannot end the data block."""
    return re.sub(rf"</\s*{tag}\s*>", f"<\\/{tag}>", text, flags=re.IGNORECASE)


# -- the messages -----------------------------------------------------------------------------


def format_instructions(response_format: str, style: str) -> str:
    if response_format == "tagged":
        tags = "\n".join(f"<{key}>\n...\n</{key}>" for key in SECTION_KEYS)
        return render("format_tagged", tags=tags)
    keys = ", ".join(f'"{key}"' for key in SECTION_KEYS)
    return render("format_json_compact" if style == "compact" else "format_json", keys=keys)


def _left_out_note(kernel_omitted: int, kernel_lines: int, host_lines: int) -> str:
    """What a compact prompt leaves out, in words the teacher (and the summary) can read."""
    parts = []
    if kernel_omitted:
        parts.append(f"{kernel_omitted} of the kernel's {kernel_lines} lines")
    if host_lines:
        parts.append(f"the host code ({host_lines} line{'s' if host_lines != 1 else ''})")
    return render("omitted_note", what=" and ".join(parts)) if parts else ""


def prompt(
    unit: KernelUnit, style: str, response_format: str, compact_code_chars: int, instruction: str = ""
) -> Prompt:
    """The first-round conversation for one unit.

    The full prompt shows the whole unit (kernel and host code, licence headers dropped): whether
    it fits the teacher's context is decided by the loop, which leaves out a unit that does not
    fit instead of cutting it. The compact prompt (small-context servers) cuts the kernel to
    `compact_code_chars`, leaves out the host code, and says so in the prompt.
    """
    instruction = instruction or build_instruction(unit)
    fmt = format_instructions(response_format, style)
    if style == "compact":
        full_kernel = drop_licence_comments(unit.code)
        code, omitted = shorten_code(unit.code, compact_code_chars)
        host = drop_licence_comments(unit.host_code) if unit.host_code.strip() else ""
        host_lines = host.count("\n") + 1 if host else 0
        note = _left_out_note(omitted, full_kernel.count("\n") + 1, host_lines)
        # One user message: chat templates of small models (Gemma) drop or reject system turns.
        user = render(
            "user_compact",
            instruction=instruction,
            code=as_data(code, "kernel_code"),
            truncation_note=note,
            format=fmt,
        )
        return Prompt([{"role": "user", "content": user}], omitted + host_lines)
    host_block = ""
    if unit.host_code.strip():
        host_block = render(
            "host_block", host_code=as_data(drop_licence_comments(unit.host_code), "host_code")
        )
    user = render(
        "user",
        instruction=instruction,
        code=as_data(drop_licence_comments(unit.code), "kernel_code"),
        host_block=host_block,
        truncation_note="",
        format=fmt,
    )
    return Prompt([{"role": "system", "content": render("system")}, {"role": "user", "content": user}])


def feedback_message(diagnostics: list[Diagnostic]) -> dict[str, str]:
    """The rejected answer's errors, as the teacher reads them in the next round."""
    lines = "\n".join(f"- [{d.check}] {d.message}" for d in diagnostics if d.severity == "error")
    return {"role": "user", "content": render("feedback", diagnostics=lines)}


def format_retry_message(reason: str) -> dict[str, str]:
    return {"role": "user", "content": render("format_retry", reason=reason)}


def answer_schema(max_chars: int = 0) -> dict[str, Any]:
    bound = {"maxLength": max_chars} if max_chars else {}
    return {
        "type": "object",
        "properties": {key: {"type": "string", **bound} for key in SECTION_KEYS},
        "required": list(SECTION_KEYS),
        "additionalProperties": False,
    }


def compact_section_chars(max_tokens: int) -> int:
    """The per-section length bound of the compact grammar: the seven sections and their JSON must
    close within max_tokens (about 3.2 characters a token, 80 tokens of keys and punctuation)."""
    if max_tokens <= 0:
        return COMPACT_SECTION_CHARS
    return max(24, min(COMPACT_SECTION_CHARS, (max_tokens - 80) * 16 // (5 * len(SECTION_KEYS))))


def response_format_param(response_format: str, style: str, max_tokens: int = 0) -> dict[str, Any] | None:
    """The `response_format` request field for a format mode (None: tagged sections, no field)."""
    if response_format == "json_schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": "kernel_reasoning", "strict": True, "schema": answer_schema()},
        }
    if response_format == "json_object":
        # llama.cpp-style: a schema inside json_object becomes a decoding grammar.
        return {
            "type": "json_object",
            "schema": answer_schema(compact_section_chars(max_tokens) if style == "compact" else 0),
        }
    return None


# -- parsing ----------------------------------------------------------------------------------


class ParseError(TaskParseError):
    """The reply is not an answer in the required form; the message says why (fed back as-is)."""


@dataclass(slots=True)
class ParsedAnswer:
    sections: dict[str, str]  # section key -> text, only non-empty sections
    reasoning: str  # the sections rendered as "## <heading>" blocks, in canonical order


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, list):
        return "\n".join(f"- {_as_text(item)}" for item in value).strip()
    if isinstance(value, dict):
        return "\n".join(f"{k}: {_as_text(v)}" for k, v in value.items()).strip()
    return "" if value is None else str(value)


def _json_sections(content: str) -> dict[str, str] | None:
    start, end = content.find("{"), content.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        obj = loads_json(content[start : end + 1])  # nested too deep for Python: a JSONDecodeError too
    except json.JSONDecodeError:
        return None
    if not isinstance(obj, dict):
        return None
    try:
        return {key: _as_text(obj[key]) for key in SECTION_KEYS if key in obj}
    except RecursionError:  # a section nested too deep to write out: as unusable as invalid JSON
        return None


def _tagged(content: str, key: str) -> str | None:
    """The text between the first `<key>` and the first `</key>` after it. One search for each
    (a lazy `<key>(.*?)</key>` scanned to the end from every unclosed `<key>`: quadratic)."""
    opening = re.search(rf"<{key}>", content, re.IGNORECASE)
    if opening is None:
        return None
    closing = re.compile(rf"</{key}>", re.IGNORECASE).search(content, opening.end())
    return None if closing is None else content[opening.end() : closing.start()]


def _tagged_sections(content: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for key in SECTION_KEYS:
        section = _tagged(content, key)
        if section is not None:
            found[key] = section.strip()
    if found:
        return found
    # Some models answer with markdown headings instead of tags; accept our own headings.
    for key, heading in REASONING_SECTIONS:
        pattern = rf"^#+\s*{re.escape(heading)}\s*$(.*?)(?=^#+\s|\Z)"
        match = re.search(pattern, content, re.DOTALL | re.IGNORECASE | re.MULTILINE)
        if match:
            found[key] = match.group(1).strip()
    return found


def render_reasoning(sections: dict[str, str]) -> str:
    return "\n\n".join(
        f"## {heading}\n{sections[key]}" for key, heading in REASONING_SECTIONS if sections.get(key)
    )


def parse(unit: KernelUnit, content: str, finish_reason: str) -> ParsedAnswer:
    """Read the teacher's answer as JSON or tagged sections; anything else is a ParseError.

    Missing or empty sections are not a parse error: the answer has the right form, and the
    structural verifier rejects it with a diagnostic the teacher can act on.
    """
    del unit  # the form of the answer does not depend on the unit; kept for the task contract
    if finish_reason == "length":
        raise ParseError("the answer was cut off at max_tokens (finish_reason=length)")
    if finish_reason == "content_filter":
        raise ParseError("the answer was withheld by the server's content filter")
    if finish_reason == "refusal":
        raise ParseError(f"the model declined to answer: {content.strip()[:200]}")
    if finish_reason == "abort":
        raise ParseError("the server aborted the generation (finish_reason=abort)")
    text = content.strip()
    fenced = re.match(r"^```[a-zA-Z]*\n(.*?)\n?```$", text, re.DOTALL)
    if fenced:
        text = fenced.group(1)
    sections = _json_sections(text)
    if sections is None:
        sections = _tagged_sections(text)
        if not sections:
            raise ParseError("the answer is neither a JSON object with the section keys nor tagged sections")
    sections = {key: value for key, value in sections.items() if value}
    if not sections:
        raise ParseError("every section of the answer is empty")
    return ParsedAnswer(sections, render_reasoning(sections))


# -- the task ---------------------------------------------------------------------------------

# Instructions are built once per unit (from its docs and facts) and used by its prompt, its
# verification and its journal row; a few thousand are kept, not one per unit of a large run.
_KEPT_INSTRUCTIONS = 4096


class KernelReasoningTask:
    """The reasoning behind one kernel unit, judged by `verifiers` (with feedback rounds)."""

    name = "kernel"

    def __init__(
        self, style: str, compact_code_chars: int, max_tokens: int, verifiers: Sequence[Verifier]
    ) -> None:
        self.style = style
        self.version = prompt_version(style)
        self.compact_code_chars = compact_code_chars
        self.max_tokens = max_tokens
        self.verifiers = list(verifiers)
        self._instructions: OrderedDict[str, str] = OrderedDict()

    def instruction(self, unit: KernelUnit) -> str:
        text = self._instructions.get(unit.unit_id)
        if text is None:
            text = self._instructions[unit.unit_id] = build_instruction(unit)
            if len(self._instructions) > _KEPT_INSTRUCTIONS:
                self._instructions.popitem(last=False)
        return text

    def item_id(self, item: KernelUnit) -> str:
        return item.unit_id

    def prompt(self, item: KernelUnit, response_format: str) -> Prompt:
        return prompt(item, self.style, response_format, self.compact_code_chars, self.instruction(item))

    def response_format(self, response_format: str) -> dict[str, Any] | None:
        return response_format_param(response_format, self.style, self.max_tokens)

    def parse(self, item: KernelUnit, reply: TeacherReply) -> ParsedAnswer:
        return parse(item, reply.content, reply.finish_reason)

    def verify(self, item: KernelUnit, record: ParsedAnswer) -> Verdict:
        return Verdict.of(run_verifiers(self.verifiers, item, self.instruction(item), record.reasoning))

    def feedback(self, verdict: Verdict) -> Message | None:
        return feedback_message(verdict.diagnostics)

    def format_retry(self, reason: str) -> Message:
        return format_retry_message(reason)

    def text_of(self, record: ParsedAnswer) -> str:
        return record.reasoning

    def journal_row(self, item: KernelUnit) -> JournalRow:
        return JournalRow(self.instruction(item), item.code)
