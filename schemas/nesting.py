"""Text from outside the project nested deeper than Python's recursive readers can follow.

`json.loads`, `ast.parse` and any recursive walk over what they build (an `ast.NodeVisitor`,
`str()` of a nested list, `json.dumps`) raise `RecursionError` on input nested a few thousand
levels deep (`ast.parse` raises `MemoryError` for some shapes: "parser stack overflow"). A
hostile training row, benchmark reference or teacher answer can be that deep; to its reader it
is input that cannot be read, so these helpers raise the error each reader already handles for
invalid input, and one hostile file never stops a run.
"""

from __future__ import annotations

import ast
import json
from typing import Any

TOO_DEEP = "nested too deep for Python to read"
# What Python's parser raises for nesting it cannot follow (`ast.parse`: RecursionError during
# ast construction, MemoryError from the parser's own stack on right-nested input).
PARSER_NESTING_ERRORS: tuple[type[Exception], ...] = (RecursionError, MemoryError)


def loads_json(text: str | bytes) -> Any:
    """`json.loads`; nesting too deep is raised as a `json.JSONDecodeError` whose `msg` is TOO_DEEP."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError(TOO_DEEP, "", 0) from None


def parse_python(text: str) -> ast.Module:
    """`ast.parse`; nesting too deep is raised as a `SyntaxError` whose `msg` is TOO_DEEP."""
    try:
        return ast.parse(text)
    except PARSER_NESTING_ERRORS:
        raise SyntaxError(TOO_DEEP) from None
