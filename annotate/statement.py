"""The task statement of a unit: what the operator computes, from its own documentation.

A kernel developer is handed a specification, not a kernel name. When ingest found the
operator's documentation (`KernelUnit.doc`, see `parsers/docs.py`), the instruction states the
function and formula, the inputs, outputs and attributes with dtypes, formats and shape rules,
the constraints and the supported hardware, in English. Facts stay exact (formulas, names,
dtypes); the fixed vocabulary of the documents (directions, product names, table words) is
translated with a small glossary; free Chinese prose that a glossary cannot translate reliably
is quoted as written, and the statement says so.

A statement must agree with the code's own OpDef: a document whose tensor names or dtypes
disagree with it (another version of the operator, the aclnn wrapper's parameter names) is
rejected, and the instruction falls back to the parsed facts alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from schemas import Diagnostic, DocParam, KernelUnit, OpDef, OperatorDoc

_CJK = re.compile(r"[\u4e00-\u9fff]")
# Fixed vocabulary of the documents (product names, table words): safe to translate word for word.
GLOSSARY: tuple[tuple[str, str], ...] = (
    ("训练系列产品", "training series"),
    ("推理系列产品", "inference series"),
    ("推理产品", "inference products"),
    ("训练产品", "training products"),
    ("系列产品", "series"),
    ("产品", "products"),
    ("支持", "supported"),
    ("可选属性", "optional attribute"),
    ("必选属性", "required attribute"),
    ("属性", "attribute"),
    ("输入", "input"),
    ("输出", "output"),
    ("维", "-D"),
    ("、", ", "),
    ("，", ", "),
    ("；", "; "),
    ("（", " ("),
    ("）", ")"),
)
SEMANTICS = ("documented", "undocumented", "rejected")
_MAX_DESC = 160


def translate(text: str) -> str:
    """Glossary translation of fixed vocabulary; the rest is left as written."""
    for zh, en in GLOSSARY:
        text = text.replace(zh, en)
    return re.sub(r"\s+", " ", text).strip()


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


def english_or_quoted(text: str) -> tuple[str, bool]:
    """(text in English, or the original quoted) and whether it was quoted untranslated."""
    done = translate(text)
    if has_cjk(done):
        return f'"{text.strip()}"', True
    return done, False


# -- agreement with the OpDef -------------------------------------------------------------------


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def canonical_dtype(name: str) -> str:
    """`DT_FLOAT16`, `FLOAT16`, `fp16` -> `float16` (the same mapping as parsers.docs, kept here
    because a stage package imports only `schemas`)."""
    key = name.strip().lower()
    key = key[3:] if key.startswith("dt_") else key
    aliases = {
        "float": "float32",
        "fp32": "float32",
        "fp16": "float16",
        "half": "float16",
        "bf16": "bfloat16",
    }
    aliases |= {"double": "float64", "fp64": "float64"}
    return aliases.get(key, key)


def tensor_params(doc: OperatorDoc) -> list[DocParam]:
    return [p for p in doc.params if p.direction in ("input", "output", "inout")]


def check_statement(doc: OperatorDoc, op_def: OpDef | None) -> list[Diagnostic]:
    """Errors when the document's tensors disagree with the OpDef (names, or dtypes of a tensor).
    Nothing to compare (no OpDef, or a document without a tensor table) is no error."""
    if op_def is None or not (op_def.inputs or op_def.outputs):
        return []
    tensors = tensor_params(doc)
    if not tensors:
        return []
    code = {_key(t.name): t for t in [*op_def.inputs, *op_def.outputs]}
    attrs = {_key(a.name) for a in op_def.attrs}
    # A scalar the document lists among the inputs is an attribute in the OpDef: not a tensor.
    documented = {_key(p.name): p for p in tensors if _key(p.name) not in attrs}
    errors: list[Diagnostic] = []
    only_doc = sorted(p.name for k, p in documented.items() if k not in code)
    only_code = sorted(t.name for k, t in code.items() if k not in documented)
    if only_doc or only_code:
        errors.append(
            Diagnostic(
                "statement.tensor_names",
                "error",
                f"{doc.path} names tensors {only_doc or '[]'} that the OpDef does not, and the OpDef "
                f"{only_code or '[]'} that it does not",
                doc.path,
            )
        )
    for key, param in documented.items():
        spec = code.get(key)
        if spec is None or not param.dtypes or not spec.dtypes:
            continue
        stated = {canonical_dtype(d) for d in param.dtypes}
        defined = {canonical_dtype(d) for d in spec.dtypes}
        if not defined <= stated:
            errors.append(
                Diagnostic(
                    "statement.dtypes",
                    "error",
                    f"{doc.path}: tensor {param.name} is documented as {sorted(stated)} but the OpDef "
                    f"registers {sorted(defined)}",
                    doc.path,
                )
            )
    return errors


# -- the statement ------------------------------------------------------------------------------


@dataclass(slots=True)
class Statement:
    """The semantic part of an instruction, and whether the unit has real semantics."""

    semantics: str  # documented | undocumented | rejected
    lines: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    quoted: bool = False  # some prose is quoted untranslated


def _param_line(param: DocParam, spec_dtypes: list[str]) -> tuple[str, bool]:
    dtypes = spec_dtypes or param.dtypes
    parts = [", ".join(canonical_dtype(d) for d in dtypes) if dtypes else "dtype not stated"]
    if param.formats:
        parts.append(f"format {', '.join(param.formats)}")
    quoted = False
    if param.shape and param.shape not in ("-", "\\"):
        shape, q = english_or_quoted(param.shape)
        parts.append(f"shape/rank {shape}")
        quoted |= q
    line = f"- `{param.name}`{' (optional)' if param.optional else ''}: {'; '.join(parts)}"
    desc = param.description.strip(" -\\")
    if desc and len(desc) <= _MAX_DESC:
        text, q = english_or_quoted(desc)
        line += f" — {text}"
        quoted |= q
    return line, quoted


def statement(unit: KernelUnit) -> Statement:
    """What to compute, stated from the unit's documentation (never from its code)."""
    doc = unit.doc
    if doc is None or not (doc.function or doc.params or doc.formulas):
        return Statement("undocumented")
    errors = check_statement(doc, unit.op_def)
    if errors:
        return Statement("rejected", diagnostics=errors)
    quoted = False
    lines: list[str] = []
    if doc.function:
        text, q = english_or_quoted(doc.function)
        quoted |= q
        lines.append(f"What to compute: {text}")
    if doc.formulas:
        lines.append("Formula:")
        lines += [f"$$ {f} $$" for f in doc.formulas[:4]]
    spec_dtypes = {}
    if unit.op_def is not None:
        spec_dtypes = {_key(t.name): t.dtypes for t in [*unit.op_def.inputs, *unit.op_def.outputs]}
    groups = (
        ("Inputs", ("input",)),
        ("Outputs", ("output",)),
        ("Inputs updated in place", ("inout",)),
        ("Attributes", ("attribute",)),
        ("Parameters", ("",)),
    )
    for title, directions in groups:
        params = [
            p for p in doc.params if p.direction in directions and (p.direction or p.dtypes or p.description)
        ]
        if not params:
            continue
        lines.append(f"{title}:")
        for param in params:
            line, q = _param_line(param, spec_dtypes.get(_key(param.name), []))
            lines.append(line)
            quoted |= q
    if doc.constraints:
        lines.append("Constraints:")
        for item in doc.constraints[:8]:
            text, q = english_or_quoted(item)
            lines.append(f"- {text}")
            quoted |= q
    if doc.products:
        products = [english_or_quoted(p) for p in doc.products]
        quoted |= any(q for _, q in products)
        lines.append(f"Supported hardware: {'; '.join(p for p, _ in products)}.")
    language = "Chinese" if doc.language == "zh" else "English"
    note = f"(From the operator's {language} documentation, {doc.path}"
    note += "; Chinese prose is quoted as written, untranslated.)" if quoted else ".)"
    lines.append(note)
    return Statement("documented", lines, quoted=quoted)
