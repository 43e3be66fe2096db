"""Facts about C++ source text that every stage reads: the keywords, and masking comments and
literals so that a regex sees only code. Masking keeps every offset and newline, so line numbers
found in the masked text hold in the original."""

from __future__ import annotations

import re

# C++20 keywords and alternative operator tokens, plus the preprocessor directive words.
CPP_KEYWORDS = frozenset(
    [
        "alignas",
        "alignof",
        "and",
        "and_eq",
        "asm",
        "auto",
        "bitand",
        "bitor",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "char8_t",
        "char16_t",
        "char32_t",
        "class",
        "compl",
        "concept",
        "const",
        "consteval",
        "constexpr",
        "constinit",
        "const_cast",
        "continue",
        "co_await",
        "co_return",
        "co_yield",
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
        "not",
        "not_eq",
        "nullptr",
        "operator",
        "or",
        "or_eq",
        "private",
        "protected",
        "public",
        "register",
        "reinterpret_cast",
        "requires",
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
        "xor",
        "xor_eq",
        "define",
        "defined",
        "elif",
        "endif",
        "error",
        "ifdef",
        "ifndef",
        "include",
        "line",
        "pragma",
        "undef",
        "warning",
    ]
)

# Literals are matched too, so that `//` or `/*` inside a string is not taken for a comment.
# An unterminated block comment runs to the end of the text. A number with C++14 digit
# separators (`1'000`, `0xFF'FF`) is matched whole, so that its `'` does not open a character
# literal that would swallow a comment after it; `\b` keeps `u8'a'` (a prefixed literal) out.
_COMMENT_OR_LITERAL = re.compile(
    r"""//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*"|\b\d[\w.]*(?:'[0-9A-Fa-f][\w.]*)+|'(?:\\.|[^'\\\n])*'""",
    re.DOTALL,
)


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def mask_comments(text: str) -> str:
    """Comments replaced by spaces (newlines kept); literals untouched."""
    if "/" not in text:  # no comment can start: the text as it is (an audit's rows often)
        return text

    def mask(m: re.Match[str]) -> str:
        s = m.group(0)
        return _blank(s) if s.startswith(("//", "/*")) else s

    return _COMMENT_OR_LITERAL.sub(mask, text)


def mask_comments_and_literals(text: str) -> str:
    """Comments and the contents of string and character literals replaced by spaces; the quotes
    stay, so a literal is still one (empty-looking) token."""

    def mask(m: re.Match[str]) -> str:
        s = m.group(0)
        if s.startswith(("//", "/*")):
            return _blank(s)
        if s[0] not in "\"'":
            return s  # a number with digit separators
        return s[0] + _blank(s[1:-1]) + s[-1]

    return _COMMENT_OR_LITERAL.sub(mask, text)
