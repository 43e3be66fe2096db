"""The example corpus passes `check-kernel`, and single-site mutations of it fail on the right line.

Entry kernels are found the simple way: every file under examples/corpus/*/ that uses
`__global__` (or CATLASS_GLOBAL) outside a #define. Mutations are applied in memory (nothing is written into the corpus).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from annotate.checker.clangcheck import CheckResult, KernelChecker
from benchmarks.mutations import (
    Mutation,
    drop_argument,
    misspell_api,
    mutation_api_names,
    undeclared_variable,
    wrong_template_argument,
)
from tests.conftest import EXAMPLES

CORPUS = EXAMPLES / "corpus"
SUFFIXES = {".cpp", ".cc", ".asc", ".h", ".hpp"}


def _declares_an_entry(text: str) -> bool:
    """A `__global__` (or catlass's CATLASS_GLOBAL) outside a #define: a header that only
    defines the macro is not a kernel (checked alone, nothing in it is ever instantiated)."""
    return any(
        ("__global__" in line or "CATLASS_GLOBAL" in line) and not line.lstrip().startswith("#")
        for line in text.splitlines()
    )


def corpus_kernels() -> list[Path]:
    return sorted(
        p
        for p in CORPUS.glob("*/**/*")
        if p.suffix in SUFFIXES and p.is_file() and _declares_an_entry(p.read_text(errors="replace"))
    )


KERNELS = corpus_kernels()


def _ids(paths: list[Path]) -> list[str]:
    return [p.relative_to(CORPUS).as_posix() for p in paths]


def _errors(result: CheckResult) -> str:
    return "\n".join(f"  line {d.line}: {d.message} [{d.check}]" for d in result.errors)


def test_the_corpus_has_entry_kernels() -> None:
    assert len(KERNELS) >= 10


CORPUS_CASES = [pytest.param(path, id=rel) for path, rel in zip(KERNELS, _ids(KERNELS), strict=True)]


@pytest.mark.parametrize("path", CORPUS_CASES)
def test_corpus_kernel_passes(checker: KernelChecker, path: Path) -> None:
    result = checker.check_file(path)
    assert result.ok, f"{path.relative_to(CORPUS)} fails check-kernel:\n{_errors(result)}"


# Device code only (host main() files have nothing to mutate): one mutation of each kind per file.
DEVICE_KERNELS = [p for p in KERNELS if p.name != "main.cpp"]
Mutator = Callable[[str, random.Random, set[str]], Mutation | None]
MUTATORS: dict[str, Mutator] = {
    "misspelt_api": lambda text, rng, names: misspell_api(text, names, rng),
    "dropped_argument": lambda text, rng, names: drop_argument(text, names, rng),
    "wrong_template_argument": lambda text, rng, names: wrong_template_argument(text, rng),
    "undeclared_variable": lambda text, rng, names: undeclared_variable(text, rng, names),
}


def _fails_on_line(result: CheckResult, path: Path, line: int) -> bool:
    entry = str(path.resolve())
    return any(d.line == line and d.path in ("", entry, result.path) for d in result.errors)


@pytest.mark.parametrize("kind", sorted(MUTATORS))
def test_mutations_fail_on_the_mutated_line(checker: KernelChecker, kind: str) -> None:
    names = mutation_api_names(checker.catalog.callable_names())
    tried, missed = 0, []
    for path in DEVICE_KERNELS:
        text = path.read_text(encoding="utf-8")
        mutation = MUTATORS[kind](text, random.Random(1), names)
        if mutation is None:
            continue
        tried += 1
        result = checker.check_file(path, overrides={path: mutation.text})
        if not _fails_on_line(result, path, mutation.line):
            missed.append(
                f"{path.relative_to(CORPUS)}:{mutation.line} {mutation.before!r} -> {mutation.after!r}"
            )
    assert tried >= 5, f"only {tried} corpus kernels have a site for {kind}"
    if kind == "dropped_argument":
        # Dropping a defaulted last argument (SetGlobalBuffer(ptr, size) -> SetGlobalBuffer(ptr))
        # is valid code: a few undetected drops are correct answers, not misses.
        assert len(missed) <= tried // 8, "\n".join(missed)
    else:
        assert not missed, "\n".join(missed)


KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;

class KernelAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, uint32_t n)
    {
        this->length = n;
        xGm.SetGlobalBuffer((__gm__ half *)x, n);
        zGm.SetGlobalBuffer((__gm__ half *)z, n);
        pipe.InitBuffer(inQueue, BUFFER_NUM, n * sizeof(half));
        pipe.InitBuffer(outQueue, BUFFER_NUM, n * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<half> xLocal = inQueue.AllocTensor<half>();
        DataCopy(xLocal, xGm, this->length);
        inQueue.EnQue(xLocal);
        LocalTensor<half> x = inQueue.DeQue<half>();
        LocalTensor<half> z = outQueue.AllocTensor<half>();
        Adds(z, x, (half)1.0, this->length);
        outQueue.EnQue<half>(z);
        inQueue.FreeTensor(x);
        LocalTensor<half> out = outQueue.DeQue<half>();
        DataCopy(zGm, out, this->length);
        outQueue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueue;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<half> xGm, zGm;
    uint32_t length;
};

extern "C" __global__ __aicore__ void add_one(GM_ADDR x, GM_ADDR z)
{
    KernelAdd op;
    op.Init(x, z, 1024);
    op.Process();
}
"""


def _line_of(needle: str) -> int:
    return next(i for i, line in enumerate(KERNEL.splitlines(), 1) if needle in line)


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        ("Adds(z, x, (half)1.0, this->length)", "Addds(z, x, (half)1.0, this->length)", "Addds"),
        ("Adds(z, x, (half)1.0, this->length)", "Adds(z, x, (half)1.0)", "Adds"),
        ("TQue<QuePosition::VECIN, BUFFER_NUM>", "TQue<float, BUFFER_NUM>", "template argument"),
        ("DataCopy(xLocal, xGm, this->length)", "DataCopy(xLocal, xGm, this->lenght)", "lenght"),
        ("DataCopy(zGm, out, this->length)", "DataCopy(zGm, outTensor, this->length)", "outTensor"),
        ("Adds(z, x, (half)1.0, this->length)", "Adds(z, xGm, (half)1.0, this->length)", "Adds"),
    ],
    ids=[
        "misspelt_api",
        "dropped_argument",
        "wrong_template_argument",
        "misspelt_member",
        "undeclared_variable",
        "type_mismatch",
    ],
)
def test_a_written_mutation_fails_with_its_line_and_name(
    checker: KernelChecker, before: str, after: str, expected: str
) -> None:
    assert checker.check_source(KERNEL, "add_one.cpp").ok
    line = _line_of(before)
    result = checker.check_source(KERNEL.replace(before, after), "add_one.cpp")
    assert not result.ok
    on_line = [d for d in result.errors if d.line == line]
    assert on_line, _errors(result)
    assert any(expected in d.message for d in on_line), _errors(result)
