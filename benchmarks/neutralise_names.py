"""Replace every identifier spelt after a task by a neutral one, to measure task matching on
solutions whose names were changed (the renamed-solution case of README "Task-level leaks").

For a task `conv2d_min_tanh_tanh` (and an op name such as `Conv2dMinTanhTanhCustom`), every
spelling of the name inside any identifier or string is replaced: `conv2d_min_tanh_tanh`,
`Conv2dMinTanhTanh`, `conv2dMinTanhTanh`, `CONV2D_MIN_TANH_TANH`, `conv2dmintanhtanh`, so that
`Conv2dMinTanhTanhCustomTilingData` becomes `OpZuluCustomTilingData` and
`conv2d_min_tanh_tanh_custom` becomes `op_zulu_custom`. Words of the task elsewhere (a comment
saying "apply tanh") are kept: they are what the code says it does, not its name.

    python benchmarks/neutralise_names.py SRC_DIR DST_DIR   # every *.py submission, by file stem

`strip_comments` removes what a row says in prose beside its code (C and Python comments,
docstrings): the harder case of a renamed row that explains nothing.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

_AFFIX = r"(?=_?(?:[Cc]ustom|[Tt]iling|[Kk]ernel|[Ii]mpl|npu|NPU|CUSTOM))"
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+")


def _words(name: str) -> list[str]:
    """ "conv2d_min_tanh" and "Conv2dMinTanhCustom" -> conv2d, min, tanh (digits stay attached)."""
    name = re.sub(r"(?i)(_?custom|_?kernel)$", "", name)
    if "_" in name or name.islower():
        return [w.lower() for w in name.split("_") if w]
    return [w.lower() for w in _CAMEL.findall(name)]


def spellings(name: str) -> list[tuple[str, str]]:
    """(spelling, neutral replacement) pairs for one name, longest first."""
    words = _words(name)
    if not words:
        return []
    camel = "".join(w[:1].upper() + w[1:] for w in words)
    forms = [
        ("_".join(words), "op_zulu"),
        ("_".join(words).upper(), "OP_ZULU"),
        (camel, "OpZulu"),
        (camel[:1].lower() + camel[1:], "opZulu"),
        ("".join(words), "opzulu"),
    ]
    return sorted(set(forms), key=lambda f: -len(f[0]))


def neutralise(text: str, names: list[str]) -> str:
    """`text` with every spelling of every name replaced (whole or inside identifiers)."""
    pairs = sorted({p for n in names for p in spellings(n) if len(p[0]) >= 3}, key=lambda p: -len(p[0]))
    for spelling, neutral in pairs:
        flags = re.IGNORECASE if "_" in spelling else 0
        # A one-word name ("gelu") is also the op's own word: replace it only where it names the
        # op (followed by an affix such as Custom, _custom, Tiling, _kernel, _impl), not in `Gelu(`.
        pattern = re.escape(spelling) + ("" if len(_words(spelling)) > 1 else _AFFIX)
        text = re.sub(pattern, neutral, text, flags=flags)
    return text


_C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DOCSTRING = re.compile(r'"""[\s\S]*?"""' + r"|'''[\s\S]*?'''")
# A Python comment, not a preprocessor line (`#include`, `#define`, `#if`, ...).
_PY_COMMENT = re.compile(
    r"(?m)(?:^|(?<=\s))#(?!\s*(?:include|define|undef|if|ifdef|ifndef|elif|else|endif|pragma|error)\b)[^\n]*"
)


def strip_comments(text: str) -> str:
    """The text without its comments and docstrings (a string holding `//` loses its tail: rare
    in kernels, and only ever less for the matcher to read)."""
    return _PY_COMMENT.sub("", _C_COMMENT.sub("", _DOCSTRING.sub("", text)))


def main() -> None:
    src, dst = Path(sys.argv[1]), Path(sys.argv[2])
    dst.mkdir(parents=True, exist_ok=True)
    for i, path in enumerate(sorted(src.glob("*.py"))):
        text = path.read_text(encoding="utf-8")
        op = re.search(r'"op"\s*:\s*"(\w+)"', text)
        names = [path.stem] + ([op.group(1)] if op else [])
        (dst / f"solution_{i:04d}.py").write_text(neutralise(text, names), encoding="utf-8")


if __name__ == "__main__":
    main()
