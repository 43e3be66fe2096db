"""The published answer: the kernel's code without the licence boilerplate of its files.

Vendor files open with a long, identical licence header (CANN Open Software License, Apache-2.0,
copyright lines). In an answer column it is noise a model would learn to reproduce, and it says
nothing about the kernel; the licence itself is kept in the row's `license` column. Only a
*leading* comment block that reads as a licence is removed, at the start of the code and at the
start of each assembled file (after its `// ---- path ----` marker); comments inside the code
stay.
"""

from __future__ import annotations

import re

from schemas.ascendc import unit_file_marker

# Words that make a comment block a licence or copyright notice, not documentation.
_LICENCE_WORDS_RE = re.compile(
    r"copyright|licen[cs]e|spdx-license-identifier|all rights reserved|warrant|版权|许可",
    re.IGNORECASE,
)
_BLOCK_COMMENT_RE = re.compile(r"\A[ \t]*/\*.*?\*/[ \t]*\n?", re.DOTALL)
_LINE_COMMENTS_RE = re.compile(r"\A(?:[ \t]*//[^\n]*(?:\n|\Z))+")
_MARKER_HEAD, _MARKER_TAIL = unit_file_marker("\n").split("\n")
_MARKER_RE = re.compile(f"^{re.escape(_MARKER_HEAD)}[^\n]+?{re.escape(_MARKER_TAIL)}$", re.MULTILINE)


def _leading_licence(text: str) -> int:
    """How many characters of `text` are leading licence comments (and the blank lines after)."""
    pos = 0
    while True:
        rest = text[pos:]
        blank = len(rest) - len(rest.lstrip(" \t\n\r"))
        rest = rest[blank:]
        match = _BLOCK_COMMENT_RE.match(rest) or _LINE_COMMENTS_RE.match(rest)
        if match is None or not _LICENCE_WORDS_RE.search(match.group(0)):
            return pos
        pos += blank + match.end()
        # the blank lines after a licence block go with it
        tail = text[pos:]
        pos += len(tail) - len(tail.lstrip("\n\r"))


def _strip_file(text: str) -> str:
    return text[_leading_licence(text) :]


def without_licence_headers(code: str) -> str:
    """`code` (one file or an assembled unit) with each file's leading licence comments removed."""
    markers = list(_MARKER_RE.finditer(code))
    if not markers:
        return _strip_file(code)
    pieces = [_strip_file(code[: markers[0].start()])]
    for i, marker in enumerate(markers):
        end = markers[i + 1].start() if i + 1 < len(markers) else len(code)
        body = code[marker.end() : end]
        newline = "\n" if body.startswith("\n") else ""
        pieces.append(marker.group(0) + newline + _strip_file(body[len(newline) :]))
    return "".join(pieces)
