"""Code-aware normalisation: comments and licence headers out, C++ tokens in.

Punctuation and numbers are kept: in kernel code `<<` versus `<`, or `2` versus `1` (the
buffer count), carry meaning, so the web-text habit of dropping them would merge different
kernels. Licence headers are comments, and every file of a vendor repository starts with the
same long one: stripping comments first is what keeps unrelated files of one vendor apart.
"""

from __future__ import annotations

import functools
import re

from schemas.ascendc.catalog import load_catalog
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

# Kept by identifier abstraction besides the C++ keywords and the names the AscendC catalog
# knows: the two namespaces kernels qualify names with (the catalog lists what is in them).
_KEPT_NAMESPACES = frozenset(["std", "AscendC"])


# Comments (licence headers included) are blanked with `mask_comments`, which keeps literals and
# the line count: the overlap evidence cites lines of the original file.


def tokenize(code: str, abstract: bool = False) -> list[str]:
    """C++ tokens of `code` after comments are removed; whitespace is folded away. With
    `abstract`, identifiers are abstracted (see abstract_identifiers)."""
    tokens = _TOKEN.findall(mask_comments(code))
    return abstract_identifiers(tokens) if abstract else tokens


@functools.cache
def kept_identifiers() -> frozenset[str]:
    """Names that identifier abstraction keeps: C++ keywords, and every name the AscendC catalog
    knows (schemas.ascendc.catalog: functions, classes and their members, types with the scalar
    types, enums and enumerators, constants, macros), so that two kernels calling different APIs
    stay apart."""
    return frozenset(load_catalog().known_names()) | CPP_KEYWORDS | _KEPT_NAMESPACES


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
