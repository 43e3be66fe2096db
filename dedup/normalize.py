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

# Strings and character literals are matched so that `//` or `/*` inside them is not a comment.
_COMMENT_OR_LITERAL = re.compile(
    r"""//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""",
    re.DOTALL,
)

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

_CPP_KEYWORDS = frozenset(
    [
        "alignas",
        "alignof",
        "asm",
        "auto",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "char16_t",
        "char32_t",
        "class",
        "const",
        "constexpr",
        "const_cast",
        "continue",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "dynamic_cast",
        "else",
        "enum",
        "explicit",
        "export",
        "extern",
        "false",
        "float",
        "for",
        "friend",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "mutable",
        "namespace",
        "new",
        "noexcept",
        "nullptr",
        "operator",
        "private",
        "protected",
        "public",
        "register",
        "reinterpret_cast",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "static_assert",
        "static_cast",
        "struct",
        "switch",
        "template",
        "this",
        "thread_local",
        "throw",
        "true",
        "try",
        "typedef",
        "typeid",
        "typename",
        "union",
        "unsigned",
        "using",
        "virtual",
        "void",
        "volatile",
        "wchar_t",
        "while",
        "override",
        "final",
        "consteval",
        "constinit",
        "concept",
        "requires",
        "include",
        "define",
        "ifdef",
        "ifndef",
        "endif",
        "elif",
        "pragma",
        "undef",
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


def _comment_to_blank(match: re.Match[str]) -> str:
    text = match.group(0)
    if text.startswith("//"):
        return ""
    if text.startswith("/*"):
        # Keep line numbers stable: the overlap evidence cites lines of the original file.
        return "\n" * text.count("\n") or " "
    return text


def strip_comments(code: str) -> str:
    """Remove // and /* */ comments (licence headers included), keeping literals and line count."""
    return _COMMENT_OR_LITERAL.sub(_comment_to_blank, code)


def tokenize(code: str) -> list[str]:
    """C++ tokens of `code` after comments are removed; whitespace is folded away."""
    return _TOKEN.findall(strip_comments(code))


@functools.cache
def kept_identifiers() -> frozenset[str]:
    """Names that identifier abstraction keeps: C++ keywords and types, AscendC API names."""
    text = resources.files("dedup").joinpath("ascendc_names.txt").read_text(encoding="utf-8")
    names = {line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")}
    return frozenset(names) | _CPP_KEYWORDS


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


def code_tokens(code: str, abstract: bool = False) -> list[str]:
    tokens = tokenize(code)
    return abstract_identifiers(tokens) if abstract else tokens


def normalized_lines(code: str) -> list[str]:
    """One normalised string per original line ("" for blank or comment-only lines)."""
    stripped = strip_comments(code)
    return [" ".join(_TOKEN.findall(line)) for line in stripped.split("\n")]
