"""Train/validation split by a hash of the operator.

All units of one operator (its kernels, tiling variants, arch-specific copies) land on the same
side, so a model is never validated on an operator whose sibling kernel it trained on. The hash
is salted and stable across machines and Python versions (sha256, not `hash()`).
"""

from __future__ import annotations

import hashlib
import re

TRAIN = "train"
VALIDATION = "validation"
SPLITS = (TRAIN, VALIDATION)

_TOKENS = re.compile(r"[A-Za-z]?[0-9]+[a-z]*|[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
_NOISE = re.compile(r"custom|kernel|impl|v\d+")


def operator_key(op_name: str, kernel_name: str = "", fallback: str = "") -> str:
    """The operator a unit belongs to, normalised so that `AddCustom`, `add_custom` and
    `AddV2` are one operator (`add`). Falls back to the kernel name, then to `fallback`."""
    for name in (op_name, kernel_name):
        tokens = [t.lower() for t in _TOKENS.findall(name)]
        while len(tokens) > 1 and _NOISE.fullmatch(tokens[-1]):
            tokens.pop()
        if tokens:
            return "".join(tokens)
    return fallback


def split_of(key: str, validation_ratio: float, salt: str) -> str:
    """`validation` for a `validation_ratio` share of operator keys, `train` for the rest."""
    digest = hashlib.sha256(f"{salt}\x1f{key}".encode()).digest()
    bucket = int.from_bytes(digest[:8], "big") / 2**64
    return VALIDATION if bucket < validation_ratio else TRAIN
