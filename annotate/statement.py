"""The task statement of a unit: what the operator computes, from its own documentation.

A kernel developer is handed a specification, not a kernel name. When ingest found the
operator's documentation (`KernelUnit.doc`, see `parsers/docs.py`), the instruction states the
function and formula, the inputs, outputs and attributes with dtypes, formats and shape rules,
the constraints and the supported hardware, in English. Facts stay exact (formulas, names,
dtypes); the fixed vocabulary of the documents (directions, product names, table words) is
translated with a small glossary; free Chinese prose that a glossary cannot translate reliably
is quoted as written (the teacher reads it; no machine translation is invented), always in the
same form, and the statement says so. A sample README without a "function" entry gives its lead
paragraph.

The statement is written in the OpDef's terms: documented tensors are mapped onto the OpDef's by
name, else by position and a shared dtype (a README's `self`/`out` for the OpDef's `x`/`y`), and
stated under the OpDef's names and dtypes with the document's names noted; attributes take the
OpDef's spelling (one name each); facts with no counterpart are left out. Only a document none
of whose tensors maps onto the OpDef (another operator's) is rejected.
Measured over the units of documented operators (ingest of ops-math, ops-cv, cann-samples):
semantics stated 62% / 89% / 83% before, 100% / 100% / 100% after.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from schemas import Diagnostic, DocParam, KernelUnit, OpDef, OperatorDoc, TensorSpec

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


@dataclass(frozen=True, slots=True)
class TensorMap:
    """Documented tensors mapped onto the OpDef's: doc name -> OpDef name (None: no counterpart)."""

    names: dict[str, str | None]
    renamed: dict[str, str]  # OpDef name -> the name the document uses for it
    dropped: list[str]  # documented tensors with no counterpart (conflicting facts, left out)


def _dtypes_agree(param: DocParam, spec: TensorSpec) -> bool:
    if not param.dtypes or not spec.dtypes:
        return True
    return bool({canonical_dtype(d) for d in param.dtypes} & {canonical_dtype(d) for d in spec.dtypes})


def map_tensors(doc: OperatorDoc, op_def: OpDef) -> TensorMap:
    """Same name first (case and `_` ignored); then, per direction, the remaining documented
    tensors by position among the remaining OpDef tensors of that direction, when their dtypes
    share at least one type (a README names `self`/`out` what the OpDef names `x`/`y`)."""
    specs = {"input": list(op_def.inputs), "output": list(op_def.outputs)}
    attrs = {_key(a.name) for a in op_def.attrs}
    documented = [p for p in tensor_params(doc) if _key(p.name) not in attrs]
    by_key = {_key(t.name): t.name for t in [*op_def.inputs, *op_def.outputs]}
    names: dict[str, str | None] = {}
    taken: set[str] = set()
    for param in documented:
        if _key(param.name) in by_key:
            names[param.name] = by_key[_key(param.name)]
            taken.add(by_key[_key(param.name)])
    for direction in ("input", "output"):
        free = [t for t in specs[direction] if t.name not in taken]
        waiting = [p for p in documented if p.name not in names and p.direction in (direction, "inout")]
        for param, spec in zip(waiting, free, strict=False):
            if _dtypes_agree(param, spec):
                names[param.name] = spec.name
                taken.add(spec.name)
    for param in documented:
        names.setdefault(param.name, None)
    renamed = {v: k for k, v in names.items() if v is not None and _key(v) != _key(k)}
    dropped = [k for k, v in names.items() if v is None]
    return TensorMap(names, renamed, dropped)


def check_statement(doc: OperatorDoc, op_def: OpDef | None) -> list[Diagnostic]:
    """Errors when the document cannot be the OpDef's operator: it documents tensors and not one
    of them maps onto an OpDef tensor (by name, or by position with a shared dtype). Renamed
    tensors and dtypes the OpDef does not register are no error: the OpDef's names and dtypes
    are stated, the document's conflicting ones left out. Nothing to compare is no error."""
    if op_def is None or not (op_def.inputs or op_def.outputs):
        return []
    mapping = map_tensors(doc, op_def)
    if not mapping.names or any(v is not None for v in mapping.names.values()):
        return []
    return [
        Diagnostic(
            "statement.tensor_names",
            "error",
            f"{doc.path} documents tensors {sorted(mapping.names)} of which none maps onto the OpDef's "
            f"{[t.name for t in [*op_def.inputs, *op_def.outputs]]} (by name, or by position and dtype)",
            doc.path,
        )
    ]


# -- the statement ------------------------------------------------------------------------------


@dataclass(slots=True)
class Statement:
    """The semantic part of an instruction, and whether the unit has real semantics."""

    semantics: str  # documented | undocumented | rejected
    lines: list[str] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    quoted: bool = False  # some prose is quoted untranslated


def _param_line(param: DocParam, spec_dtypes: list[str], name: str = "") -> tuple[str, bool]:
    dtypes = spec_dtypes or param.dtypes
    parts = [", ".join(canonical_dtype(d) for d in dtypes) if dtypes else "dtype not stated"]
    if param.formats:
        parts.append(f"format {', '.join(param.formats)}")
    quoted = False
    if param.shape and param.shape not in ("-", "\\"):
        shape, q = english_or_quoted(param.shape)
        parts.append(f"shape/rank {shape}")
        quoted |= q
    line = f"- `{name or param.name}`{' (optional)' if param.optional else ''}: {'; '.join(parts)}"
    desc = param.description.strip(" -\\")
    if desc and len(desc) <= _MAX_DESC:
        text, q = english_or_quoted(desc)
        line += f" — {text}"
        quoted |= q
    return line, quoted


def _arch35(unit: KernelUnit) -> bool:
    return "/arch35/" in f"/{unit.path}" or unit.path.endswith("_apt.cpp")


def _attribute_names(doc: OperatorDoc, op_def: OpDef | None) -> dict[str, str]:
    """Documented attribute -> the OpDef's name for it (`negative_slope` -> `negativeSlope`)."""
    if op_def is None:
        return {}
    by_key = {_key(a.name): a.name for a in op_def.attrs}
    return {p.name: by_key[_key(p.name)] for p in doc.params if _key(p.name) in by_key}


def rename(text: str, names: dict[str, str]) -> str:
    """`text` with each documented name replaced by the OpDef's (ASCII boundaries: a Chinese
    character next to a name is no part of it)."""
    for old, new in names.items():
        if old != new:
            text = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(old)}(?![A-Za-z0-9_])", new, text)
    return text


def doc_renames(doc: OperatorDoc, op_def: OpDef | None) -> dict[str, str]:
    """Every documented name -> the OpDef's name for it (attributes and mapped tensors)."""
    if op_def is None:
        return {}
    names = _attribute_names(doc, op_def)
    names |= {k: v for k, v in map_tensors(doc, op_def).names.items() if v is not None}
    return names


def covered_names(unit: KernelUnit) -> set[str]:
    """OpDef tensor and attribute names the documented statement already states (the facts need
    not list them again: one name per attribute)."""
    doc, op_def = unit.doc, unit.op_def
    if doc is None or op_def is None:
        return set()
    names = set(_attribute_names(doc, op_def).values())
    names |= {v for v in map_tensors(doc, op_def).names.values() if v is not None}
    return names | {p.name for p in doc.params}


def _tensor_lines(unit: KernelUnit, doc: OperatorDoc) -> tuple[list[str], bool]:
    """Inputs and outputs under the OpDef's names and dtypes, with what the document says."""
    op_def = unit.op_def
    mapping = map_tensors(doc, op_def) if op_def is not None else None
    specs = {t.name: t for t in ([*op_def.inputs, *op_def.outputs] if op_def else [])}
    lines: list[str] = []
    quoted = False
    stated: set[str] = set()
    groups = (("Inputs", ("input",)), ("Outputs", ("output",)), ("Inputs updated in place", ("inout",)))
    for title, directions in groups:
        rows: list[str] = []
        for param in [p for p in doc.params if p.direction in directions]:
            name = param.name
            if mapping is not None and param.name in mapping.names:
                target = mapping.names[param.name]
                if target is None:
                    continue  # no counterpart in the OpDef: a conflicting fact, left out
                name = target
            spec = specs.get(name)
            line, q = _param_line(param, spec.dtypes if spec else [], name)
            rows.append(line)
            stated.add(name)
            quoted |= q
        if op_def is not None and title != "Inputs updated in place":
            own = op_def.inputs if title == "Inputs" else op_def.outputs
            rows += [
                f"- `{t.name}`: {', '.join(canonical_dtype(d) for d in t.dtypes) or 'dtype not stated'}"
                for t in own
                if t.name not in stated
            ]
        if rows:
            lines += [f"{title}:", *rows]
    return lines, quoted


# OpDef SoC names and how the documents name their products.
_SOC_FAMILIES = (
    ("ascend910_93", "A3"),
    ("ascend910b", "A2"),
    ("ascend950", "950"),
    ("ascend310p", "310P"),
    ("ascend310b", "310B"),
    ("ascend910", "910"),
)


def _products_line(unit: KernelUnit, doc: OperatorDoc) -> tuple[str, bool]:
    """The documented hardware, unless the unit's own target says otherwise (its OpDef's SoCs are
    stated with the facts; an arch35 kernel targets Ascend950 whatever the README lists)."""
    if _arch35(unit):
        return "Target hardware: Ascend950 (an arch35 kernel).", False
    if not doc.products:
        return "", False
    socs = [soc.lower() for soc in (unit.op_def.socs if unit.op_def is not None else [])]
    families = {family for soc in socs for key, family in _SOC_FAMILIES if soc.startswith(key)}
    if socs and not any(f in p for f in families for p in doc.products):
        return "", False  # the document's products are not this unit's target SoCs
    products = [english_or_quoted(p) for p in doc.products]
    return f"Supported hardware: {'; '.join(p for p, _ in products)}.", any(q for _, q in products)


_SETUP_HEADING_RE = re.compile(
    r"快速开始|环境|编译|运行|构建|安装|目录|quick ?start|build|install|run|usage|prerequisite|setup",
    re.IGNORECASE,
)
_LEAD_MAX = 400
_TAG_OR_SPACE_RE = re.compile(r"&ensp;|&nbsp;|<[^>]+>")
_SPACE_ENTITY_RE = re.compile(r"&ensp;|&nbsp;")


def _without_tags(text: str) -> str:
    """`text` without HTML tags and space entities. Tags are searched for only up to the last `>`:
    past it each `<` would scan to the end in vain (16 KB of `<` took 0.1 s, 100 KB 4 s)."""
    end = text.rfind(">") + 1
    return _TAG_OR_SPACE_RE.sub("", text[:end]) + _SPACE_ENTITY_RE.sub("", text[end:])


def lead_paragraph(raw: str) -> str:
    """The first prose paragraph of a README (not under a setup heading; no code, images, tables
    or HTML): what a sample without a "function" entry says it does."""
    heading = ""
    for block in re.split(r"\n\s*\n", re.sub(r"```.*?```", "", raw, flags=re.DOTALL)):
        lines = block.strip().splitlines()
        headings = next((i for i, x in enumerate(lines) if not x.lstrip().startswith("#")), len(lines))
        if headings:  # popping them one by one from the front was quadratic in their number
            heading, lines = lines[headings - 1], lines[headings:]
        body = (
            []
            if not lines
            else lines[: next((i for i, x in enumerate(lines) if x.lstrip().startswith("#")), len(lines))]
        )
        text = "\n".join(body).strip()
        if not text or _SETUP_HEADING_RE.search(heading) or text.startswith(("<", "|", "!", "-", "*", ">")):
            continue
        text = re.sub(r"\s+", " ", _without_tags(text)).strip()
        if len(text) >= 20:
            return text if len(text) <= _LEAD_MAX else text[: _LEAD_MAX - 3].rstrip() + "..."
    return ""


def _sample_statement(doc: OperatorDoc) -> Statement | None:
    """A README with no function entry: its lead paragraph says what the sample does."""
    lead = lead_paragraph(doc.raw)
    if not lead:
        return None
    text, quoted = english_or_quoted(lead)
    title, _ = english_or_quoted(doc.title) if doc.title else ("", False)
    note = "; Chinese prose is quoted as written" if quoted else ""
    lines = [f"What the sample does ({title or doc.path}): {text}", f"(From {doc.path}{note}.)"]
    return Statement("documented", lines, quoted=quoted)


def statement(unit: KernelUnit) -> Statement:
    """What to compute, stated from the unit's documentation (never from its code), under the
    OpDef's names and dtypes where the two disagree."""
    doc = unit.doc
    if doc is not None and not (doc.function or doc.params or doc.formulas) and doc.raw:
        sample = _sample_statement(doc)
        if sample is not None:
            return sample
    if doc is None or not (doc.function or doc.params or doc.formulas):
        return Statement("undocumented")
    errors = check_statement(doc, unit.op_def)
    if errors:
        return Statement("rejected", diagnostics=errors)
    quoted = False
    lines: list[str] = []
    if doc.function:
        text, q = english_or_quoted(rename(doc.function, doc_renames(doc, unit.op_def)))
        quoted |= q
        lines.append(f"What to compute: {text}")
    if doc.formulas:
        lines.append("Formula:")
        lines += [f"$$ {f} $$" for f in doc.formulas[:4]]
    tensor_lines, q = _tensor_lines(unit, doc)
    lines += tensor_lines
    quoted |= q
    attr_names = _attribute_names(doc, unit.op_def)
    for title, direction in (("Attributes", "attribute"), ("Parameters", "")):
        params = [
            p for p in doc.params if p.direction == direction and (p.direction or p.dtypes or p.description)
        ]
        if not params:
            continue
        lines.append(f"{title}:")
        for param in params:
            line, q = _param_line(param, [], attr_names.get(param.name, param.name))
            lines.append(line)
            quoted |= q
    renames = doc_renames(doc, unit.op_def)
    constraints = [rename(c, renames) for c in (clean_constraint(c) for c in doc.constraints) if c]
    if constraints:
        lines.append("Constraints:")
        for item in constraints[:8]:
            text, q = english_or_quoted(item)
            lines.append(f"- {text}")
            quoted |= q
    products, q = _products_line(unit, doc)
    if products:
        lines.append(products)
        quoted |= q
    if unit.op_def is not None and unit.doc is not None:
        renamed = map_tensors(doc, unit.op_def).renamed
        if renamed:
            pairs = ", ".join(f"`{doc_name}` is `{name}`" for name, doc_name in sorted(renamed.items()))
            lines.append(
                f"(The documentation names the tensors differently, {pairs}; the OpDef's names are used above.)"
            )
    language = "Chinese" if doc.language == "zh" else "English"
    note = f"(From the operator's {language} documentation, {doc.path}"
    note += "; Chinese prose the glossary cannot translate is quoted as written.)" if quoted else ".)"
    lines.append(note)
    return Statement("documented", lines, quoted=quoted)


# -- constraints ----------------------------------------------------------------------------------

# A lead-in whose list was not extracted ("确定性计算：", "参数self、out的shape约束：") says nothing alone;
# the aclnn wrapper's determinism note is about the host API, not the kernel.
_LEAD_IN_RE = re.compile(r"[:：]\s*$")
_HOST_API_NOTE_RE = re.compile(r"^\s*aclnn\w*(?:\s*[&、]\s*aclnn\w*)*\s*默认(?:非)?确定性实现[。.]?\s*$")
# Table cells flattened without a separator: "yOutsupportedFLOAT32" -> "yOut supported FLOAT32".
# (The word after the name is not read: a lookahead's trailing `\w*` scanned the rest of a long
# word from every name in it, quadratic on "aFLOATaFLOAT...".)
_GLUED_RE = re.compile(r"(?<=[a-z0-9])(?=supported|Supported|FLOAT|BFLOAT|UINT|INT\d|BOOL|COMPLEX)")


def clean_constraint(text: str) -> str:
    """A constraint as one clean sentence, or "" when it is only a lead-in or a host-API note."""
    text = re.sub(r"\s+", " ", text).strip()
    if not text or _LEAD_IN_RE.search(text) or _HOST_API_NOTE_RE.match(text):
        return ""
    return _GLUED_RE.sub(" ", text)
