"""Op-name leakage: the same operator name in the corpus and in the benchmark.

A name match with different code is not a copy, but it says the training set teaches the very
operator the benchmark tests; it is reported as its own signal and removed only on request.
"""

from __future__ import annotations

import re

_LEADING_INDEX = re.compile(r"^\d+[_\-.]+")  # "19_ReLU" (file-per-task PyTorch benchmarks)
_VERSION = re.compile(r"(?:[_\-]v|V)\d+$")  # "MatmulV2", "matmul_v3"
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
# Words that name the packaging, not the operator: "AddCustom", "add_kernel", "SoftmaxOp".
_NOISE = frozenset({"custom", "kernel", "kernels", "op", "ops", "impl", "ascendc", "aclnn", "npu", "tik"})


def op_name_key(name: str, keep_version: bool = False) -> str:
    """ "AddCustom", "add_custom", "ADD" -> "add"; "MatMulV2" -> "matmul"; "19_ReLU" -> "relu".
    A version is dropped wherever it ends the name, before or after the packaging words
    (`MobilenetV2Custom` and `mobilenet_v2` -> "mobilenet"); `keep_version` keeps it
    ("mobilenetv2"), to tell apart two tasks only a version separates."""
    name = name.strip().rsplit("/", 1)[-1].removesuffix(".py")
    name = _LEADING_INDEX.sub("", name)
    previous = None
    while previous != name and not keep_version:
        previous = name
        name = _VERSION.sub("", name).strip("_- ")
    words = [w.lower() for w in _WORDS.findall(name)]
    while words and words[-1] in _NOISE:
        words.pop()
    while words and words[0] in _NOISE:
        words.pop(0)
    if not keep_version and len(words) > 2 and words[-2] == "v" and words[-1].isdigit():
        del words[-2:]  # `MobilenetV2Custom`: the version before the packaging word
    return "".join(words)


def name_index(names: dict[str, str]) -> dict[str, list[str]]:
    """Normalised name -> the keys (e.g. item ids) whose raw name normalises to it."""
    index: dict[str, list[str]] = {}
    for key, raw in names.items():
        norm = op_name_key(raw)
        if len(norm) >= 2:  # one-letter names ("a", "x") would match everything
            index.setdefault(norm, []).append(key)
    return index
