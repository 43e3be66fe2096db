"""The headers of the blocks enclosing a line (`struct X : public Base<T> {`, `void f() {`).

When a kernel's class derives from a type declared in a missing header, clang's recovery can
report errors anywhere inside that class. Knowing the headers of the enclosing blocks lets the
classifier tell those follow-on errors from real ones.
"""

from __future__ import annotations

import re
from functools import lru_cache

_COMMENT_OR_STRING = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.DOTALL)
_PREPROCESSOR = re.compile(r"^[ \t]*#.*?(?<!\\)$", re.MULTILINE | re.DOTALL)


def _blank(match: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", match.group(0))


@lru_cache(maxsize=256)
def block_headers(text: str) -> tuple[tuple[str, ...], ...]:
    """For each line (index = line - 1), the headers of the blocks open at its start."""
    code = _PREPROCESSOR.sub(_blank, _COMMENT_OR_STRING.sub(_blank, text))
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
