"""Small libclang helpers shared by the catalog builder and the checks."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import clang.cindex as ci

FUNCTION_KINDS = (
    ci.CursorKind.FUNCTION_DECL,
    ci.CursorKind.FUNCTION_TEMPLATE,
    ci.CursorKind.CXX_METHOD,
    ci.CursorKind.CONSTRUCTOR,
)
CLASS_KINDS = (
    ci.CursorKind.CLASS_DECL,
    ci.CursorKind.STRUCT_DECL,
    ci.CursorKind.CLASS_TEMPLATE,
    ci.CursorKind.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION,
)
TEMPLATE_PARAM_KINDS = (
    ci.CursorKind.TEMPLATE_TYPE_PARAMETER,
    ci.CursorKind.TEMPLATE_NON_TYPE_PARAMETER,
    ci.CursorKind.TEMPLATE_TEMPLATE_PARAMETER,
)
UNBOUNDED = 1 << 20  # a variadic function: any argument count (kernels pass hundreds to asc_vf_call)


@dataclass(frozen=True, slots=True)
class Arity:
    min_args: int
    max_args: int  # UNBOUNDED for parameter packs / C varargs

    def admits(self, n: int) -> bool:
        return self.min_args <= n <= self.max_args


def overloaded_decls(cursor: ci.Cursor) -> list[ci.Cursor]:
    """The candidate declarations behind an OVERLOADED_DECL_REF (empty when lookup found none)."""
    lib = ci.conf.lib
    n = lib.clang_getNumOverloadedDecls(cursor)
    return [lib.clang_getOverloadedDecl(cursor, i) for i in range(n)]


def parameters(cursor: ci.Cursor) -> list[ci.Cursor]:
    return [c for c in cursor.get_children() if c.kind == ci.CursorKind.PARM_DECL]


def template_parameters(cursor: ci.Cursor) -> list[ci.Cursor]:
    return [c for c in cursor.get_children() if c.kind in TEMPLATE_PARAM_KINDS]


_OPEN = {"(": ")", "<": ">", "[": "]", "{": "}"}


def has_default(parm: ci.Cursor) -> bool:
    """Whether a parameter has a default argument: an `=` in its own tokens.

    Child expressions are not enough (`const MultiCopyParams<T, dim>&` has `dim` as one, `int a[4]`
    has `4`); and for declarations written by a macro the tokens run on past the parameter, so
    the scan stops at the `,` or `)` that ends it."""
    depth: list[str] = []
    for token in parm.get_tokens():
        text = token.spelling
        if text in _OPEN:
            depth.append(_OPEN[text])
        elif depth and text == depth[-1]:
            depth.pop()
        elif not depth and text in (",", ")", ";"):
            return False
        elif not depth and text == "=":
            return True
    return False


def arity(cursor: ci.Cursor) -> Arity:
    params = parameters(cursor)
    variadic = any(p.type.spelling.endswith("...") for p in params)
    if (
        cursor.kind == ci.CursorKind.FUNCTION_DECL
        and int(cursor.type._kind_id) == ci.TypeKind.FUNCTIONPROTO.value
    ):
        variadic = variadic or cursor.type.is_function_variadic()
    required = sum(1 for p in params if not has_default(p) and not p.type.spelling.endswith("..."))
    return Arity(required, UNBOUNDED if variadic else len(params))


def qualified_name(cursor: ci.Cursor) -> str:
    parts: list[str] = []
    current: ci.Cursor | None = cursor
    while current is not None and current.kind != ci.CursorKind.TRANSLATION_UNIT:
        if current.spelling:
            parts.append(current.spelling)
        current = current.semantic_parent
    return "::".join(reversed(parts))


def namespace_of(cursor: ci.Cursor) -> str:
    parent = cursor.semantic_parent
    return qualified_name(parent) if parent is not None else ""


def file_of(cursor: ci.Cursor) -> str:
    loc = cursor.location
    return loc.file.name if loc.file is not None else ""


def render_template_params(cursor: ci.Cursor) -> list[str]:
    rendered = []
    for tp in template_parameters(cursor):
        if tp.kind == ci.CursorKind.TEMPLATE_TYPE_PARAMETER:
            rendered.append(f"typename {tp.spelling}".strip())
        elif tp.kind == ci.CursorKind.TEMPLATE_NON_TYPE_PARAMETER:
            rendered.append(f"{tp.type.spelling} {tp.spelling}".strip())
        else:
            rendered.append(f"template <...> class {tp.spelling}".strip())
    return rendered


def render_signature(cursor: ci.Cursor) -> str:
    tparams = render_template_params(cursor)
    prefix = f"template <{', '.join(tparams)}> " if tparams else ""
    params = []
    for p in parameters(cursor):
        text = f"{p.type.spelling} {p.spelling}".strip()
        params.append(text + (" = ..." if has_default(p) else ""))
    result = "" if cursor.kind == ci.CursorKind.CONSTRUCTOR else f"{cursor.result_type.spelling} "
    return f"{prefix}{result}{cursor.spelling}({', '.join(params)})"


def clang_version() -> str:
    """The libclang version string, e.g. 'clang version 18.1.1'.

    Read through a private ctypes handle: changing restypes on cindex's own handle would break it.
    """

    class _CXStringRaw(ctypes.Structure):
        _fields_ = (("data", ctypes.c_void_p), ("flags", ctypes.c_uint))

    try:
        lib = ctypes.CDLL(ci.conf.get_filename())
        lib.clang_getClangVersion.restype = _CXStringRaw
        lib.clang_getCString.argtypes = [_CXStringRaw]
        lib.clang_getCString.restype = ctypes.c_char_p
        lib.clang_disposeString.argtypes = [_CXStringRaw]
        cx = lib.clang_getClangVersion()
        raw = lib.clang_getCString(cx)
        text = raw.decode("utf-8") if raw else "unknown"
        lib.clang_disposeString(cx)
        return text
    except (OSError, AttributeError) as exc:
        return f"unavailable ({exc})"


class _PrivateLib:
    """libclang entry points cindex does not bind, called through a separate ctypes handle."""

    _lib: ctypes.CDLL | None = None

    @classmethod
    def get(cls) -> ctypes.CDLL:
        if cls._lib is None:
            lib = ctypes.CDLL(ci.conf.get_filename())
            lib.clang_isInvalidDeclaration.argtypes = [ci.Cursor]
            lib.clang_isInvalidDeclaration.restype = ctypes.c_uint
            cls._lib = lib
        return cls._lib


def is_invalid_declaration(cursor: ci.Cursor) -> bool:
    """True for declarations clang recovered from errors (e.g. `LAUNCH_BOUND(1024)` read as a
    function declaration when the macro is unknown): their names must not count as declared."""
    return bool(_PrivateLib.get().clang_isInvalidDeclaration(cursor))


class _SourceRangeList(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(ci.SourceRange))]


def skipped_lines(tu: ci.TranslationUnit, path: str) -> set[int]:
    """Lines of `path` the preprocessor skipped in this parse (`#if 0`, another SoC's branch).
    Needs a parse with PARSE_DETAILED_PROCESSING_RECORD."""
    lib = ci.conf.lib
    get_file = lib.clang_getFile
    get_file.restype, get_file.argtypes = ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_char_p]
    skipped = lib.clang_getSkippedRanges
    skipped.restype = ctypes.POINTER(_SourceRangeList)
    skipped.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    handle = get_file(tu.obj, path.encode())
    lines: set[int] = set()
    if not handle:
        return lines
    ranges = skipped(tu.obj, handle)
    for i in range(ranges.contents.count):
        r = ranges.contents.ranges[i]
        lines.update(range(r.start.line, r.end.line + 1))
    lib.clang_disposeSourceRangeList(ranges)
    return lines


def tokens_from(cursor: ci.Cursor, count: int, span: int = 32) -> list[str]:
    """The first `count` token spellings of `cursor`, without tokenising its whole extent (an `if`
    statement can span a thousand lines)."""
    start = cursor.extent.start
    if start.file is None:
        return []
    end_offset = min(cursor.extent.end.offset, start.offset + span)
    end = ci.SourceLocation.from_offset(cursor.translation_unit, start.file, end_offset)
    extent = ci.SourceRange.from_locations(start, end)
    return [t.spelling for t in cursor.translation_unit.get_tokens(extent=extent)][:count]
