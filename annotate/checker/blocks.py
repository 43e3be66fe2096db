"""The headers of the blocks enclosing a line (`struct X : public Base<T> {`, `void f() {`).

When a kernel's class derives from a type declared in a missing header, clang's recovery can
report errors anywhere inside that class. Knowing the headers of the enclosing blocks lets the
classifier tell those follow-on errors from real ones.
"""

from __future__ import annotations

import re
from functools import lru_cache

from schemas.cpp import mask_comments_and_literals

_PREPROCESSOR = re.compile(r"^[ \t]*#.*?(?<!\\)$", re.MULTILINE | re.DOTALL)


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


@lru_cache(maxsize=256)
def block_headers(text: str) -> tuple[tuple[str, ...], ...]:
    """For each line (index = line - 1), the headers of the blocks open at its start."""
    code = _PREPROCESSOR.sub(_blank, mask_comments_and_literals(text))
    stack: list[str] = []
    per_line: list[tuple[str, ...]] = [()]
    header_start = 0
    for i, ch in enumerate(code):
        if ch == "{":
            stack.append(code[header_start:i].strip())
            header_start = i + 1
        elif ch == "}":
            if stack:
                stack.pop()
            header_start = i + 1
        elif ch == ";":
            header_start = i + 1
        elif ch == "\n":
            per_line.append(tuple(stack))
    return tuple(per_line)


def headers_at(text: str, line: int) -> tuple[str, ...]:
    lines = block_headers(text)
    return lines[line - 1] if 0 < line <= len(lines) else ()


_NOT_A_FUNCTION = re.compile(r"^(?:template\s*<.*>\s*)?(?:namespace|class|struct|union|enum)\b", re.DOTALL)
DEVICE_MARKERS = (
    "__aicore__",
    "__global__",
    "__simd_vf__",
    "__simd_callee__",
    "__simt_vf__",
    "__simt_callee__",
    "__mix__",
    "__vector__",
    "__cube__",
    "__host_aicore__",
    "CATLASS_DEVICE",
    "CATLASS_GLOBAL",
    "CATLASS_HOST_DEVICE",
)
_MACRO_DEF_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(?:\([^)]*\))?[ \t]+(.*)$", re.MULTILINE)


def device_markers(sources: dict[str, str] | None = None) -> tuple[str, ...]:
    """The device markers, plus the unit's own macros that expand to one
    (`#define DEVICE_INLINE __aicore__ inline`)."""
    found = list(DEVICE_MARKERS)
    for text in (sources or {}).values():
        for name, body in _MACRO_DEF_RE.findall(text):
            if any(marker in body for marker in DEVICE_MARKERS) and name not in found:
                found.append(name)
    return tuple(found)


def function_header(headers: tuple[str, ...]) -> str | None:
    """The header of the outermost function among enclosing blocks (control-flow blocks can only
    be inside one), or None at namespace or class scope."""
    for header in headers:
        if _NOT_A_FUNCTION.match(header) or "(" not in header or header.endswith("="):
            continue
        return header
    return None


def in_host_function(text: str, line: int, markers: tuple[str, ...] = DEVICE_MARKERS) -> bool:
    """The line is inside a function not marked `__aicore__`/`__global__` (host code: main(),
    file readers, launch wrappers)."""
    header = function_header(headers_at(text, line))
    return header is not None and not any(marker in header for marker in markers)
