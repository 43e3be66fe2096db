"""Code-aware normalisation: comments and licence headers out, C++ tokens in.

Punctuation and numbers are kept: in kernel code `<<` versus `<`, or `2` versus `1` (the
buffer count), carry meaning, so the web-text habit of dropping them would merge different
kernels. Licence headers are comments, and every file of a vendor repository starts with the
same long one: stripping comments first is what keeps unrelated files of one vendor apart.
"""

from __future__ import annotations

import functools
import re
from importlib import resources

from schemas.cpp import CPP_KEYWORDS, mask_comments

_TOKEN = re.compile(
    r"""
    "(?:\\.|[^"\\\n])*"                  # string literal
  | '(?:\\.|[^'\\\n])*'                  # character literal
  | [A-Za-z_]\w*                         # identifier or keyword
  | \.?\d(?:[eEpP][+-]|[\w.'])*          # number, with suffixes and digit separators
  | ::|->\*?|\.\.\.|<<=|>>=|<=>|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|\#\#
  | \S                                   # any other single character
    """,
    re.VERBOSE,
)

PLACEHOLDER = "$"

# Kept by identifier abstraction besides the C++ keywords: fixed-width types and the AscendC
# core types (the API names come from ascendc_names.txt).
_KEPT_TYPES = frozenset(
    [
        "int8_t",
        "int16_t",
        "int32_t",
        "int64_t",
        "uint8_t",
        "uint16_t",
        "uint32_t",
        "uint64_t",
        "size_t",
        "half",
        "float16_t",
        "bfloat16_t",
        "std",
        "AscendC",
        "LocalTensor",
        "GlobalTensor",
        "TPipe",
        "TQue",
        "TQueBind",
        "TBuf",
        "TPosition",
        "QuePosition",
        "DataCopyParams",
        "DataCopyExtParams",
        "DataCopyPadExtParams",
    ]
)


# Comments (licence headers included) are blanked with `mask_comments`, which keeps literals and
# the line count: the overlap evidence cites lines of the original file.


def tokenize(code: str, abstract: bool = False) -> list[str]:
    """C++ tokens of `code` after comments are removed; whitespace is folded away. With
    `abstract`, identifiers are abstracted (see abstract_identifiers)."""
    tokens = _TOKEN.findall(mask_comments(code))
    return abstract_identifiers(tokens) if abstract else tokens


@functools.cache
def kept_identifiers() -> frozenset[str]:
    """Names that identifier abstraction keeps: C++ keywords and types, AscendC API names."""
    text = resources.files("dedup").joinpath("ascendc_names.txt").read_text(encoding="utf-8")
    names = {line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")}
    return frozenset(names) | CPP_KEYWORDS | _KEPT_TYPES


def abstract_identifiers(tokens: list[str]) -> list[str]:
    """Map identifiers to one placeholder, keeping keywords, AscendC names and `__x__` attributes.

    One placeholder for all (not one per name) so that an inserted statement does not renumber
    every later identifier: renamed copies become token-identical, edited copies stay close.
    """
    keep = kept_identifiers()
    out = []
    for tok in tokens:
        first = tok[0]
        # ALL_CAPS names are macros and enum values (GM_ADDR, VECIN): usually API, so kept.
        is_name = first.isalpha() or first == "_"
        if is_name and tok not in keep and not tok.startswith("__") and not tok.isupper():
            out.append(PLACEHOLDER)
        else:
            out.append(tok)
    return out


def token_count(text: str) -> int:
    """C++ tokens in `text`, comments included (strip them first when they must not count)."""
    return len(_TOKEN.findall(text))


def normalized_lines(code: str) -> list[str]:
    """One normalised string per original line ("" for blank or comment-only lines)."""
    stripped = mask_comments(code)
    return [" ".join(_TOKEN.findall(line)) for line in stripped.split("\n")]
