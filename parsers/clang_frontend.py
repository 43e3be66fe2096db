"""libclang front end for AscendC without the CANN toolkit.

Plain clang cannot read AscendC: `__aicore__`, `__global__`, `__gm__`, `GM_ADDR` and the
`<<<...>>>` launch syntax are not C++, and the vendor headers are absent. We therefore
- force-include the AscendC keywords (`schemas/ascendc/keywords.h`, shared with the checker): `__global__` and `__aicore__` become `annotate`
  attributes, so a cursor still tells a kernel entry from a helper;
- give every include that is not in the repository an empty stub, and search no system
  directory, so a parse depends on the repository alone and gives the same result everywhere;
- rewrite `<<<...>>>` into a comment of the same length, so line and column numbers hold;
- parse with incomplete-TU tolerance and no error limit: clang still yields the entry
  FUNCTION_DECL and the kernel classes with their methods despite the semantic errors,
  which are kept as diagnostics (the unit is then `partial`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import clang.cindex as ci

from schemas import Diagnostic, KernelClass, Param, TilingField
from schemas.ascendc import (
    GLOBAL_ANNOTATION,
    VIRTUAL_ROOT,
    blank_bracket_attribute_defines,
    keywords_prelude,
    rewrite_launches,
)

PRELUDE_PATH = f"{VIRTUAL_ROOT}/ascendc_keywords.h"
STUB_DIR = f"{VIRTUAL_ROOT}/stubs"

_TEMPLATE_PARAM_KINDS = (
    ci.CursorKind.TEMPLATE_TYPE_PARAMETER,
    ci.CursorKind.TEMPLATE_NON_TYPE_PARAMETER,
    ci.CursorKind.TEMPLATE_TEMPLATE_PARAMETER,
)
_FUNCTION_KINDS = (ci.CursorKind.FUNCTION_DECL, ci.CursorKind.FUNCTION_TEMPLATE)
_CLASS_KINDS = (
    ci.CursorKind.CLASS_DECL,
    ci.CursorKind.STRUCT_DECL,
    ci.CursorKind.CLASS_TEMPLATE,
    ci.CursorKind.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION,
)
_METHOD_KINDS = (ci.CursorKind.CXX_METHOD, ci.CursorKind.FUNCTION_TEMPLATE)


@dataclass(slots=True)
class Entry:
    name: str
    file: str  # relative path of the file that defines it
    line: int
    params: list[Param]
    template_params: list[Param]
    body: str  # source text of the definition, for finding which entries call which


@dataclass(slots=True)
class StructDef:
    name: str
    fields: list[TilingField]


@dataclass(slots=True)
class ClangFacts:
    entries: list[Entry] = field(default_factory=list)
    classes: list[KernelClass] = field(default_factory=list)
    structs: dict[str, StructDef] = field(default_factory=dict)
    defined_functions: set[str] = field(default_factory=set)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error_count: int = 0


def parse_unit(
    index: ci.Index,
    root: Path,
    files: list[str],
    texts: dict[str, str],
    external: list[str],
    include_dirs: list[str],
    defines: list[str],
    std: str = "c++17",
) -> ClangFacts:
    """Parse the entry file `files[0]` with the repository-local headers in `files` visible."""
    entry_abs = str(root / files[0])
    unsaved = [(PRELUDE_PATH, keywords_prelude())]
    unsaved += [(f"{STUB_DIR}/{name}", "") for name in external]
    for rel in files:
        rewritten = blank_bracket_attribute_defines(rewrite_launches(texts[rel]))
        if rewritten is not texts[rel]:
            unsaved.append((str(root / rel), rewritten))
    args = [
        "-x",
        "c++",
        f"-std={std}",
        "-nostdinc",
        "-nostdinc++",
        "-nobuiltininc",
        "-ferror-limit=0",
        "-Wno-everything",
        "-include",
        PRELUDE_PATH,
        *[f"-I{root / d}" if d else f"-I{root}" for d in include_dirs],
        f"-I{STUB_DIR}",
        *[f"-D{d}" for d in defines],
    ]
    try:
        tu = index.parse(
            entry_abs, args=args, unsaved_files=unsaved, options=ci.TranslationUnit.PARSE_INCOMPLETE
        )
    except ci.TranslationUnitLoadError as exc:
        return ClangFacts(
            diagnostics=[Diagnostic("clang", "error", f"libclang could not parse: {exc}", files[0])]
        )
    rel_of = {str(root / rel): rel for rel in files}
    facts = ClangFacts()
    _collect(tu.cursor, rel_of, facts, texts)
    for diag in tu.diagnostics:
        if diag.severity < ci.Diagnostic.Error:
            continue
        facts.error_count += 1
        location = diag.location
        path = location.file.name if location.file else ""
        facts.diagnostics.append(
            Diagnostic("clang", "error", diag.spelling, rel_of.get(path, path), location.line)
        )
    return facts


def _collect(cursor: ci.Cursor, rel_of: dict[str, str], facts: ClangFacts, texts: dict[str, str]) -> None:
    for child in cursor.get_children():
        location = child.location
        rel = rel_of.get(location.file.name) if location.file else None
        if rel is None:
            continue  # the prelude, a stub, or a file outside the unit
        kind = child.kind
        if kind in (ci.CursorKind.NAMESPACE, ci.CursorKind.LINKAGE_SPEC, ci.CursorKind.UNEXPOSED_DECL):
            _collect(child, rel_of, facts, texts)
        elif kind in _FUNCTION_KINDS and child.is_definition():
            facts.defined_functions.add(child.spelling)
            if _is_global(child):
                facts.entries.append(_entry(child, rel, texts[rel]))
        elif kind in _CLASS_KINDS and child.is_definition():
            _class(child, facts)


def _is_global(cursor: ci.Cursor) -> bool:
    return any(
        c.kind == ci.CursorKind.ANNOTATE_ATTR and c.spelling == GLOBAL_ANNOTATION
        for c in cursor.get_children()
    )


def _entry(cursor: ci.Cursor, rel: str, text: str) -> Entry:
    body = _definition_text(cursor, text)
    names = [c.spelling for c in cursor.get_children() if c.kind == ci.CursorKind.PARM_DECL]
    written = _written_param_types(body, cursor.spelling, len(names))
    params = [Param(n, written[i] if written else "") for i, n in enumerate(names)]
    return Entry(cursor.spelling, rel, cursor.location.line, params, _template_params(cursor), body)


def _definition_text(cursor: ci.Cursor, text: str) -> str:
    """The definition's source text. Its extent may start inside a macro of the prelude
    (`__global__`), so the end offset is trusted and the start is the name's own line."""
    end = cursor.extent.end
    if not end.file or end.offset <= 0:
        return ""
    line_start = text.rfind("\n", 0, cursor.location.offset) + 1
    start = cursor.extent.start.offset if cursor.extent.start.file == end.file else line_start
    return text[min(start, line_start) : end.offset]


def _written_param_types(body: str, name: str, count: int) -> list[str]:
    """Parameter types as written in the source (`GM_ADDR`, not `uint8_t *`): the tokens of a
    macro-typed parameter belong to the macro, so they are read from the definition text."""
    m = re.search(rf"\b{re.escape(name)}\s*\(", body)
    if not m:
        return []
    depth, start, pieces = 1, m.end(), []
    for i in range(m.end(), len(body)):
        ch = body[i]
        if ch in "(<[{":
            depth += 1
        elif ch in ")>]}":
            depth -= 1
            if depth == 0:
                pieces.append(body[start:i])
                break
        elif ch == "," and depth == 1:
            pieces.append(body[start:i])
            start = i + 1
    pieces = [" ".join(p.split()) for p in pieces if p.strip()]
    if len(pieces) != count:
        return []
    return [re.sub(r"\s*\b\w+\s*(=.*)?$", "", p).strip() or p for p in pieces]


def _template_params(cursor: ci.Cursor) -> list[Param]:
    out = []
    for c in cursor.get_children():
        if c.kind == ci.CursorKind.TEMPLATE_TYPE_PARAMETER:
            out.append(Param(c.spelling, "typename"))
        elif c.kind in _TEMPLATE_PARAM_KINDS:
            out.append(Param(c.spelling, _decl_type(c)))
    return out


def _decl_type(cursor: ci.Cursor) -> str:
    """The declared type as written (`GM_ADDR`, not its expansion), from the declaration's tokens."""
    tokens = [t.spelling for t in cursor.get_tokens()]
    if cursor.spelling and cursor.spelling in tokens:
        tokens = tokens[: len(tokens) - 1 - tokens[::-1].index(cursor.spelling)]
    written = " ".join(tokens).replace(" :: ", "::").replace(" < ", "<").replace(" >", ">").replace(" *", "*")
    return written or cursor.type.spelling


def _class(cursor: ci.Cursor, facts: ClangFacts) -> None:
    methods: list[str] = []
    fields: list[TilingField] = []
    for c in cursor.get_children():
        if c.kind in _METHOD_KINDS:
            facts.defined_functions.add(c.spelling)
            if c.spelling not in methods:
                methods.append(c.spelling)
        elif c.kind == ci.CursorKind.FIELD_DECL:
            size = c.type.get_array_size()
            element = c.type.get_array_element_type().spelling if size > 0 else _decl_type(c)
            fields.append(TilingField(c.spelling, element, max(size, 0)))
    if methods:
        facts.classes.append(KernelClass(cursor.spelling, methods, _template_params(cursor)))
    elif fields and cursor.spelling:
        facts.structs.setdefault(cursor.spelling, StructDef(cursor.spelling, fields))
