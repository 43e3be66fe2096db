"""Code inside text: the blocks of code an instruction-dataset field carries.

Published instruction datasets (Alpaca-style instruction/input/output, chat transcripts) keep the
kernel inside prose: after some reasoning, in a Markdown fence with or without a language tag,
or between tags such as `<kernel_impl>` ... `</kernel_impl>`. A leak audit must compare that
code, each block on its own, not the whole field (the prose would dilute Jaccard and shift
every line of evidence).

Modes (`--code-from`):
- `text`: the whole field is one block (what a plain code column holds);
- `fenced`: every fenced block (``` or ~~~, any info string or none; an unclosed fence runs to
  the end of the field);
- `tags`: the content of every `<kernel_impl>`, `<code>` or `<kernel>` element; a fence inside
  one gives its fenced blocks instead;
- `auto`: tag blocks, then fenced blocks outside them; the whole field when there is neither.
Blocks come in the order they start in the field; their index is their position in that list.
"""

from __future__ import annotations

import functools
import re

MODES = ("text", "fenced", "tags", "auto")
TAGS = ("kernel_impl", "code", "kernel")

# An opening fence is a whole line; the closing one is the fence's character at least as many
# times, with only whitespace around it (`[^\S\n]`: str.strip()'s whitespace, within the line).
_FENCE_OPEN = re.compile(r"^[ \t]{0,3}(?P<fence>`{3,}|~{3,})[^\n`]*$", re.MULTILINE)
# A tag's attributes stop at the next `<` as well as at its `>`: read up to `>` alone, a hostile
# row of 16,000 unclosed `<code ` scanned to its end once per tag (10.6 s per 100 KB).
_TAG = re.compile(
    r"<(?P<tag>" + "|".join(TAGS) + r")(?:\s[^<>]*)?>(?P<body>.*?)(?:</(?P=tag)\s*>|\Z)", re.DOTALL
)


def _fenced(text: str, offset: int = 0) -> list[tuple[int, str]]:
    """(start offset, content) of every fenced block of `text`: regex searches from fence to
    fence, not a Python step per line (this runs on every row of an audit)."""
    blocks: list[tuple[int, str]] = []
    at = 0
    while (opened := _FENCE_OPEN.search(text, at)) is not None:
        fence = opened.group("fence")
        body_start = opened.end() + 1
        closing = _closing_fence(fence).search(text, body_start)
        if closing is None:  # an unclosed fence runs to the end
            blocks.append((offset + opened.start(), text[body_start:]))
            break
        blocks.append((offset + opened.start(), text[body_start : closing.start() - 1]))
        at = closing.end() + 1
    return blocks


@functools.cache
def _closing_fence(fence: str) -> re.Pattern[str]:
    return re.compile(rf"^[^\S\n]*{re.escape(fence[0])}{{{len(fence)},}}[^\S\n]*$", re.MULTILINE)


def _tagged(text: str) -> tuple[list[tuple[int, str]], list[tuple[int, int]]]:
    """Blocks from tag elements (fences inside them win), and the spans the elements cover."""
    blocks: list[tuple[int, str]] = []
    spans: list[tuple[int, int]] = []
    for match in _TAG.finditer(text):
        body = match.group("body")
        inner = _fenced(body, match.start("body"))
        blocks.extend(inner or [(match.start("body"), body)])
        spans.append(match.span())
    return blocks, spans


def extract_blocks(text: str, mode: str = "auto") -> list[str]:
    """The code blocks of `text` under `mode` (see the module doc); blank blocks are dropped."""
    if mode not in MODES:
        raise ValueError(f"unknown code extraction mode {mode!r}; use one of {', '.join(MODES)}")
    if mode == "text":
        found = [(0, text)]
    elif mode == "fenced":
        found = _fenced(text)
    elif mode == "tags":
        found, _ = _tagged(text)
    else:
        found, spans = _tagged(text)
        found += [
            (start, body) for start, body in _fenced(text) if not any(lo <= start < hi for lo, hi in spans)
        ]
        if not found:
            found = [(0, text)]
    return [body for _, body in sorted(found, key=lambda b: b[0]) if body.strip()]


# What marks a block off in its field: a fence line, an opening or closing tag.
_MARKER = re.compile(
    r"^[ \t]{0,3}(?:`{3,}|~{3,})[^\n`]{0,200}$|</?(?:" + "|".join(TAGS) + r")(?:\s[^<>]{0,200})?>",
    re.MULTILINE,
)


def prose_around(text: str, blocks: list[str]) -> str:
    """`text` without `blocks` (as `extract_blocks` took them from it) and their fences or tags:
    a reply's analysis and notes, blanks collapsed."""
    for block in blocks:
        text = text.replace(block, " ", 1)
    return " ".join(_MARKER.sub(" ", text).split())
