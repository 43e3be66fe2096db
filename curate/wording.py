"""Small helpers for what curate prints and writes for people."""

from __future__ import annotations


def plural(n: int, word: str, many: str = "") -> str:
    """`1 unit`, `2 units`, `1,500 units` (`many` for an irregular plural)."""
    return f"{n:,} {word if n == 1 else many or word + 's'}"
