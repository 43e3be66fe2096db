"""What a parsed translation unit declares: names, macros, calls clang could not resolve.

The classifier asks "is this identifier known anywhere?"; these helpers answer from the AST (names
declared validly, including locals) and from the files actually included (macros).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import clang.cindex as ci

from annotate.checker.astcheck import norm, unit_cursors
from schemas.ascendc import KEYWORDS_HEADER, SURFACE_PRELUDE, is_surface_file
from schemas.ascendc import cursors as cu

DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)", re.MULTILINE)
_SCOPES = (
    ci.CursorKind.NAMESPACE,
    ci.CursorKind.LINKAGE_SPEC,
    ci.CursorKind.CLASS_DECL,
    ci.CursorKind.STRUCT_DECL,
    ci.CursorKind.CLASS_TEMPLATE,
    ci.CursorKind.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION,
    ci.CursorKind.ENUM_DECL,
    ci.CursorKind.UNION_DECL,
)


def declared_names(tu: ci.TranslationUnit) -> set[str]:
    """Every name declared at namespace or class scope in the TU, surface included."""
    names: set[str] = set()
    stack = [tu.cursor]
    while stack:
        cursor = stack.pop()
        for child in cursor.get_children():
            if child.kind.is_declaration() and child.spelling and not cu.is_invalid_declaration(child):
                names.add(child.spelling)
            if child.kind in _SCOPES:
                stack.append(child)
    return names


@cache
def _file_macros(path: str) -> frozenset[str]:
    """Macros a surface file defines (surface files never change during a run)."""
    try:
        return frozenset(DEFINE_RE.findall(Path(path).read_text(encoding="utf-8", errors="replace")))
    except OSError:
        return frozenset()


def included_macros(tu: ci.TranslationUnit, sources: dict[str, str]) -> set[str]:
    """Macros defined by the files this TU actually includes (not by the whole surface)."""
    names = {m for text in sources.values() for m in DEFINE_RE.findall(text)}
    names |= _file_macros(str(SURFACE_PRELUDE)) | _file_macros(str(KEYWORDS_HEADER))
    for inclusion in tu.get_includes():
        path = norm(inclusion.include.name)
        if path not in sources and is_surface_file(path):
            names |= _file_macros(path)
    return names


def unit_declarations(tu: ci.TranslationUnit, unit_files: set[str]) -> set[str]:
    """Every name validly declared in the unit's own files, locals and parameters included."""
    names: set[str] = set()
    for cursor in unit_cursors(tu.cursor, unit_files):
        if cursor.kind.is_declaration() and cursor.spelling and not cu.is_invalid_declaration(cursor):
            names.add(cursor.spelling)
    return names


def failed_calls(
    tu: ci.TranslationUnit, unit_files: set[str]
) -> dict[tuple[str, int], list[tuple[str, list[str]]]]:
    """Calls clang could not resolve (kept as recovery expressions): name and argument types."""
    found: dict[tuple[str, int], list[tuple[str, list[str]]]] = {}
    for cursor in unit_cursors(tu.cursor, unit_files):
        if cursor.kind not in (ci.CursorKind.UNEXPOSED_EXPR, ci.CursorKind.CALL_EXPR):
            continue
        children = list(cursor.get_children())
        if not children or children[0].kind != ci.CursorKind.DECL_REF_EXPR:
            continue
        refs = [c for c in children[0].get_children() if c.kind == ci.CursorKind.OVERLOADED_DECL_REF]
        if not refs:
            continue
        key = (norm(cu.file_of(cursor)), cursor.location.line)
        found.setdefault(key, []).append((refs[0].spelling, [a.type.spelling for a in children[1:]]))
    return found


_CLASS_KINDS = (ci.CursorKind.CLASS_DECL, ci.CursorKind.STRUCT_DECL, ci.CursorKind.CLASS_TEMPLATE)


def class_headers(tu: ci.TranslationUnit, sources: dict[str, str]) -> dict[str, str]:
    """The classes the unit's own files define: name -> the text of its header (up to the `{`)."""
    found: dict[str, str] = {}
    for cursor in unit_cursors(tu.cursor, set(sources)):
        if cursor.kind not in _CLASS_KINDS or not cursor.is_definition() or not cursor.spelling:
            continue
        text = sources.get(norm(cu.file_of(cursor)), "")
        start = cursor.extent.start.offset
        brace = text.find("{", start)
        if brace < 0:
            continue
        found.setdefault(cursor.spelling, text[start:brace])
    return found
