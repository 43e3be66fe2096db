"""The ingest's reading of a libclang parse: entries, kernel classes, tiling structs.

The parse itself is the shared AscendC driver's (`schemas/ascendc/frontend.py`, use `INGEST`):
keywords predefined, every include that is not in the repository stubbed, no system directory,
launch syntax kept as comments, incomplete-TU tolerance. This module only reads the cursors: a
kernel entry is a function definition carrying the `global` annotation, a kernel class a class
with methods, a tiling struct a class with fields only. Semantic errors are kept as diagnostics
(the unit is then `partial`).
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

import clang.cindex as ci

from schemas import Diagnostic, KernelClass, Param, TilingField
from schemas.ascendc import GLOBAL_ANNOTATION
from schemas.ascendc.cursors import CLASS_KINDS, TEMPLATE_PARAM_KINDS
from schemas.ascendc.frontend import INGEST, ParseRequest, missing_stubs, parse, readable_sources
from schemas.ascendc.includes import in_tests

_FUNCTION_KINDS = (ci.CursorKind.FUNCTION_DECL, ci.CursorKind.FUNCTION_TEMPLATE)
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


class UnparsableFile(ValueError):
    """libclang produced no translation unit for the entry file."""


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
    """Parse the entry file `files[0]` with the repository-local headers in `files` visible.
    `defines` are all the macros the parse starts from (the SoC's included: the unit records them)."""
    by_path = {str(root / rel): texts[rel] for rel in files}
    request = ParseRequest(
        entry=str(root / files[0]),
        use=INGEST,
        soc=None,
        include_dirs=[str(root / d) if d else str(root) for d in include_dirs],
        defines=defines,
        stubs=missing_stubs(external),
        unsaved=[
            *((path, text) for path, text, changed in readable_sources(by_path, INGEST) if changed),
            *unopenable_overlays(root, files, external, include_dirs),
        ],
        std=std,
    )
    try:
        tu = parse(index, request)
    except ci.TranslationUnitLoadError:
        # libclang gave up on the file (its crash recovery turns a parser crash into this): the
        # file is skipped with this reason, never counted as a file without kernels.
        raise UnparsableFile("libclang could not parse this file (it gave up)") from None
    rel_of = {os.path.normpath(root / rel): rel for rel in files}
    facts = ClangFacts()
    # A unit test that includes the kernel's source (`tests/ut/op_kernel/test_x.cpp` including
    # `../../../op_kernel/x.cpp`) is not a kernel: the entries it reaches outside the tests are
    # the kernel's own units, ingested from the kernel's file.
    own = rel_of
    if in_tests(files[0]):
        own = {path: rel for path, rel in rel_of.items() if in_tests(rel) or rel == files[0]}
    _collect(tu.cursor, own, facts, texts)
    for diag in tu.diagnostics:
        if diag.severity < ci.Diagnostic.Error:
            continue
        facts.error_count += 1
        location = diag.location
        path = location.file.name if location.file else ""
        facts.diagnostics.append(
            Diagnostic(
                "clang", "error", diag.spelling, rel_of.get(os.path.normpath(path), path), location.line
            )
        )
    return facts


def unopenable_overlays(
    root: Path, files: list[str], external: list[str], include_dirs: list[str]
) -> list[tuple[str, str]]:
    """Empty stand-ins for the paths libclang would open itself that the repository's reader
    refuses: a FIFO, socket or device (opening a FIFO waits for a writer: the parse worker hung
    until its timeout and the kernel was lost), and a link leading out of the repository (its
    content is not the repository's). Looked at by name only (`lstat`, never `open`): the unit's
    own files, and every include the resolver did not find, in each folder clang searches (one
    listing per folder: a parse has a few folders and tens of unresolved names)."""
    inside = os.path.realpath(root).rstrip("/") + "/"
    own = [os.path.normpath(root / rel) for rel in files]
    folders = {os.path.dirname(p) for p in own} | {os.path.normpath(root / d) for d in include_dirs}
    candidates = set(own)
    plain = {name for name in external if "/" not in name}
    candidates |= {os.path.normpath(os.path.join(d, n)) for d in folders for n in external if n not in plain}
    for folder in folders:
        try:
            with os.scandir(folder) as it:
                candidates |= {e.path for e in it if e.name in plain}
        except OSError:
            continue
    under = os.path.normpath(root).rstrip("/") + "/"
    return [(path, "") for path in sorted(candidates) if _unopenable(path, under, inside)]


def _unopenable(path: str, under: str, inside: str) -> bool:
    """Whether clang must not open `path`: not a regular file, or not the repository's (a link
    out of it, or a `../` include that climbs out of it)."""
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode) or not path.startswith(under):
            if not os.path.realpath(path).startswith(inside):
                return True
            mode = os.stat(path).st_mode
    except OSError:
        return False  # absent: clang finds nothing there either
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


_NESTING_KINDS = (ci.CursorKind.NAMESPACE, ci.CursorKind.LINKAGE_SPEC, ci.CursorKind.UNEXPOSED_DECL)
_READ_KINDS = frozenset((*_NESTING_KINDS, *_FUNCTION_KINDS, *CLASS_KINDS))


def _collect(cursor: ci.Cursor, rel_of: dict[str, str], facts: ClangFacts, texts: dict[str, str]) -> None:
    for child in cursor.get_children():
        kind = child.kind
        if kind not in _READ_KINDS:
            continue  # a typedef, a variable, a using: nothing is read from it (and its location,
            # the costly part of a child in libclang's bindings, is not asked for)
        location = child.location
        # clang names a file as it was reached (`dir/../include/x.h`): compare normalised paths
        rel = rel_of.get(os.path.normpath(location.file.name)) if location.file else None
        if rel is None:
            continue  # the prelude, a stub, or a file outside the unit
        if kind in (ci.CursorKind.NAMESPACE, ci.CursorKind.LINKAGE_SPEC, ci.CursorKind.UNEXPOSED_DECL):
            _collect(child, rel_of, facts, texts)
        elif kind in _FUNCTION_KINDS and child.is_definition():
            facts.defined_functions.add(child.spelling)
            if _is_global(child):
                facts.entries.append(_entry(child, rel, texts[rel]))
        elif kind in CLASS_KINDS and child.is_definition():
            _class(child, facts, _Source(location.file.name, texts[rel]))


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


class _Source:
    """The text of the file a class is defined in, as clang names it, for reading declarations
    from their extents (bytes: clang's offsets count bytes)."""

    __slots__ = ("data", "name")

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.data = text.encode("utf-8", "surrogatepass")


# Tokens as clang spells them in a declaration: literals, identifiers and numbers, multi-character
# punctuators, then any other single character.
_TOKEN_RE = re.compile(
    r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|[A-Za-z_]\w*|\.?\d[\w.']*|\.\.\.|::|->|<<=|>>=|<<|>>|&&|\|\||[^\s\w]"
)
_COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def _tokens_from_text(cursor: ci.Cursor, source: _Source | None) -> list[str] | None:
    """The declaration's tokens read from its file's text: the same as `get_tokens()` for a
    declaration written in one file, at a fraction of the cost (libclang makes a Python object
    per token); None when the extent is not plainly inside `source`."""
    if source is None:
        return None
    extent = cursor.extent
    start, end = extent.start, extent.end
    if (
        start.file is None
        or end.file is None
        or start.file.name != source.name
        or end.file.name != source.name
    ):
        return None
    if not 0 <= start.offset <= end.offset <= len(source.data):
        return None
    text = source.data[start.offset : end.offset].decode("utf-8", "replace")
    tokens: list[str] = _TOKEN_RE.findall(_COMMENT_RE.sub(" ", text))
    # A declaration a macro wrote does not spell its own name: libclang's tokens decide.
    # A "field" that holds a call is a method clang could not read as one: libclang decides too.
    return tokens if cursor.spelling in tokens and "(" not in tokens else None


def _template_params(cursor: ci.Cursor, source: _Source | None = None) -> list[Param]:
    out = []
    for c in cursor.get_children():
        if c.kind == ci.CursorKind.TEMPLATE_TYPE_PARAMETER:
            out.append(Param(c.spelling, "typename"))
        elif c.kind in TEMPLATE_PARAM_KINDS:
            out.append(Param(c.spelling, _decl_type(c, source)))
    return out


def _decl_type(cursor: ci.Cursor, source: _Source | None = None) -> str:
    """The declared type as written (`GM_ADDR`, not its expansion), from the declaration's tokens."""
    tokens = _tokens_from_text(cursor, source)
    if tokens is None:
        tokens = [t.spelling for t in cursor.get_tokens()]
    if cursor.spelling and cursor.spelling in tokens:
        tokens = tokens[: len(tokens) - 1 - tokens[::-1].index(cursor.spelling)]
    written = " ".join(tokens).replace(" :: ", "::").replace(" < ", "<").replace(" >", ">").replace(" *", "*")
    return written or cursor.type.spelling


def _class(cursor: ci.Cursor, facts: ClangFacts, source: _Source) -> None:
    methods: list[str] = []
    fields: list[TilingField] = []
    for c in cursor.get_children():
        if c.kind in _METHOD_KINDS:
            facts.defined_functions.add(c.spelling)
            if c.spelling not in methods:
                methods.append(c.spelling)
        elif c.kind == ci.CursorKind.FIELD_DECL:
            size = c.type.get_array_size()
            element = c.type.get_array_element_type().spelling if size > 0 else _decl_type(c, source)
            fields.append(TilingField(c.spelling, element, max(size, 0)))
    if methods:
        facts.classes.append(KernelClass(cursor.spelling, methods, _template_params(cursor, source)))
    elif fields and cursor.spelling:
        facts.structs.setdefault(cursor.spelling, StructDef(cursor.spelling, fields))
