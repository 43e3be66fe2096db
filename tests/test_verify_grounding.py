"""Grounding checks and the surface (snippet) verifier: each named check passes a faithful
reasoning and fails a wrong one, with the reasoning line of the claim."""

from __future__ import annotations

import pytest

from annotate.reasoning import GroundingVerifier, SurfaceVerifier, VerifyConfig, default_verifiers
from annotate.reasoning.grounding import grounding_checks, verbatim_overlap
from annotate.tasks.kernel_reasoning import render_reasoning
from schemas import Diagnostic, KernelUnit, TilingField
from schemas.ascendc.catalog import load_catalog
from schemas.verdicts import REASONING_SECTIONS, Verifier, is_accepted
from tests.test_annotate_task import make_unit

CODE = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_LENGTH = 128;

class KernelAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        blockLength = totalLength / GetBlockNum();
        xGm.SetGlobalBuffer((__gm__ half *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + blockLength * GetBlockIdx(), blockLength);
        zGm.SetGlobalBuffer((__gm__ half *)z + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < blockLength / TILE_LENGTH; i++) {
            LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
            LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
            DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
            DataCopy(yLocal, yGm[i * TILE_LENGTH], TILE_LENGTH);
            inQueueX.EnQue(xLocal);
            inQueueY.EnQue(yLocal);
            LocalTensor<half> a = inQueueX.DeQue<half>();
            LocalTensor<half> b = inQueueY.DeQue<half>();
            LocalTensor<half> c = outQueueZ.AllocTensor<half>();
            Add(c, a, b, TILE_LENGTH);
            outQueueZ.EnQue<half>(c);
            inQueueX.FreeTensor(a);
            inQueueY.FreeTensor(b);
            LocalTensor<half> out = outQueueZ.DeQue<half>();
            DataCopy(zGm[i * TILE_LENGTH], out, TILE_LENGTH);
            outQueueZ.FreeTensor(out);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<half> xGm, yGm, zGm;
    uint32_t blockLength;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAdd op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}
"""

SECTIONS = {
    "analysis": "z = x + y elementwise on float16 vectors of totalLength elements; a pure vector operator.",
    "core_split": "Each AI core takes totalLength / GetBlockNum() elements, offset by its block index.",
    "tiling": "Tiles of TILE_LENGTH = 128 halves (256 bytes) keep three queues of two buffers in UB.",
    "pipeline": "CopyIn with `AscendC::DataCopy` into VECIN queues, `Add` on the vector unit, CopyOut "
    "from the VECOUT queue; double buffering (BUFFER_NUM = 2) overlaps the stages.",
    "api_choices": "`AscendC::Add` takes two LocalTensors and a count; `AscendC::DataCopy` moves whole "
    "32-byte blocks, so no padding is needed; `AscendC::DataCopyPad` was rejected as unnecessary.",
    "tail_and_dtype": "Lengths are multiples of TILE_LENGTH, so there is no tail; half in, half out.",
    "host_tiling": "The host fills `tiling.totalLength` and `tiling.tileNum` and sets the block dim.",
}


def unit(**overrides: object) -> KernelUnit:
    values: dict[str, object] = {
        "code": CODE,
        "apis": ["DataCopy", "Add", "GetBlockNum", "GetBlockIdx"],
        "queue_positions": ["VECIN", "VECOUT"],
        "buffer_num": 2,
        "tiling_fields": [TilingField("totalLength", "uint32_t"), TilingField("tileNum", "uint32_t")],
    }
    values.update(overrides)
    return make_unit(**values)


def reasoning(**changes: str) -> str:
    return render_reasoning({**SECTIONS, **changes})


@pytest.fixture(scope="module")
def checks():  # type: ignore[no-untyped-def]
    return grounding_checks(load_catalog(), max_overlap=0.5, min_section_chars=20)


def run_check(checks, name: str, text: str, the_unit: KernelUnit | None = None) -> list[Diagnostic]:  # type: ignore[no-untyped-def]
    return list(checks[name](the_unit or unit(), text))


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_the_faithful_reasoning_passes_every_verifier() -> None:
    found: list[Diagnostic] = []
    for verifier in default_verifiers(VerifyConfig(cann=False)):
        found += verifier.verify(unit(), "instruction", reasoning())
    assert found == []


CHECKS = [
    "grounding.injection",
    "grounding.repetition",
    "grounding.substance",
    "grounding.api_exists",
    "grounding.api_used",
    "grounding.buffer_num",
    "grounding.constants",
    "grounding.queue_positions",
    "grounding.tiling_fields",
    "grounding.overlap",
    "grounding.sections",
]


def test_every_check_is_named(checks) -> None:  # type: ignore[no-untyped-def]
    assert sorted(checks) == sorted(CHECKS)


@pytest.mark.parametrize("name", CHECKS)
def test_each_check_passes_the_faithful_reasoning(checks, name: str) -> None:  # type: ignore[no-untyped-def]
    assert run_check(checks, name, reasoning()) == []


# (check, section, wrong text, text on the reported line, expected words in the message)
FAILURES = [
    (
        "grounding.api_exists",
        "api_choices",
        "`AscendC::Addd` adds the two tiles.",
        "AscendC::Addd",
        ["`AscendC::Addd`", "does not exist", "`AscendC::Add`"],
    ),
    (
        "grounding.api_used",
        "api_choices",
        "`AscendC::Mul` combines the two tiles.",
        "AscendC::Mul",
        ["`AscendC::Mul` is not used by this kernel"],
    ),
    (
        "grounding.buffer_num",
        "pipeline",
        "A single buffer per queue keeps it simple.",
        "single buffer",
        ["1 buffers", "have 2"],
    ),
    (
        "grounding.constants",
        "tiling",
        "Tiles of TILE_LENGTH = 256 halves fill the queues.",
        "TILE_LENGTH = 256",
        ["TILE_LENGTH = 256", "TILE_LENGTH = 128"],
    ),
    (
        "grounding.queue_positions",
        "pipeline",
        "The inputs are staged in A1 before the vector unit reads them.",
        "A1",
        ["A1", "VECIN, VECOUT"],
    ),
    (
        "grounding.tiling_fields",
        "host_tiling",
        "The host fills `tiling.totalLen` for the kernel.",
        "tiling.totalLen",
        ["`totalLen`", "`totalLength`"],
    ),
]


@pytest.mark.parametrize(
    ("name", "section", "wrong", "needle", "words"), FAILURES, ids=[f[0] for f in FAILURES]
)
def test_each_check_fails_a_wrong_claim_on_its_line(checks, name, section, wrong, needle, words) -> None:  # type: ignore[no-untyped-def]
    text = reasoning(**{section: wrong})
    [diag] = run_check(checks, name, text)
    assert (diag.check, diag.severity) == (name, "error")
    assert diag.line == line_of(text, needle)
    for word in words:
        assert word in diag.message


def test_api_used_accepts_an_api_discussed_as_rejected(checks) -> None:  # type: ignore[no-untyped-def]
    text = reasoning(
        api_choices="`AscendC::Add` suffices; `AscendC::Axpy` would need a scalar, so it is not used."
    )
    assert run_check(checks, "grounding.api_used", text) == []
    assert run_check(checks, "grounding.api_exists", text) == []


def test_api_exists_ignores_helper_names_of_the_explanation(checks) -> None:  # type: ignore[no-untyped-def]
    text = reasoning(
        pipeline="`CopyIn()` then `Compute()` then `CopyOut()` run per tile with double buffering."
    )
    assert run_check(checks, "grounding.api_exists", text) == []


def test_buffer_num_is_skipped_when_the_kernel_has_no_queues(checks) -> None:  # type: ignore[no-untyped-def]
    text = reasoning(pipeline="A single buffer per queue keeps it simple.")
    # a framework kernel: no queue declared anywhere in its code
    queueless = "\n".join(
        line for line in CODE.splitlines() if "InitBuffer" not in line and "TQue" not in line
    )
    assert run_check(checks, "grounding.buffer_num", text, unit(buffer_num=0, code=queueless)) == []
    # the parsed count may miss a depth the code declares (`constexpr static`): the code decides
    assert run_check(checks, "grounding.buffer_num", text, unit(buffer_num=0))


def test_overlap_bounds_pasting_the_answer(checks) -> None:  # type: ignore[no-untyped-def]
    pasted = reasoning(analysis="The kernel is:\n" + CODE)
    [diag] = run_check(checks, "grounding.overlap", pasted)
    assert diag.check == "grounding.overlap" and "verbatim" in diag.message
    assert verbatim_overlap(pasted, CODE) > 0.9 and verbatim_overlap(reasoning(), CODE) < 0.1


def test_sections_missing_or_too_short(checks) -> None:  # type: ignore[no-untyped-def]
    text = render_reasoning({k: v for k, v in SECTIONS.items() if k != "tiling"} | {"host_tiling": "none"})
    found = run_check(checks, "grounding.sections", text)
    messages = sorted(d.message for d in found)
    assert len(found) == 2 and all(d.check == "grounding.sections" for d in found)
    assert "`host_tiling`" in messages[0] and "only 4 characters" in messages[0]
    assert "`tiling`" in messages[1] and "missing" in messages[1]
    assert {key for key, _ in REASONING_SECTIONS} == set(SECTIONS)  # same names as the prompt


# -- the surface verifier: code quoted in the reasoning type-checks ----------------------------------
def _with_block(code: str) -> str:
    return reasoning(api_choices=SECTIONS["api_choices"] + "\n\n```cpp\n" + code + "\n```")


def test_snippets_that_type_check_pass() -> None:
    verifier = SurfaceVerifier()
    fragment = "LocalTensor<half> c = outQueueZ.AllocTensor<half>();\nAdd(c, a, b, TILE_LENGTH);"
    assert verifier.verify(unit(), "", _with_block(fragment)) == []
    whole = CODE.split("extern")[0]
    assert verifier.verify(unit(), "", _with_block(whole)) == []


def test_snippet_with_a_wrong_api_fails_on_its_reasoning_line() -> None:
    text = _with_block("AscendC::Addd(c, a, b, TILE_LENGTH);")
    [diag] = SurfaceVerifier().verify(unit(), "", text)
    assert (diag.check, diag.severity) == ("surface.snippet", "error")
    assert "Addd" in diag.message and "did you mean 'Add'" in diag.message
    assert diag.line == line_of(text, "AscendC::Addd")


def test_snippet_with_a_wrong_argument_count_fails() -> None:
    [diag] = SurfaceVerifier().verify(unit(), "", _with_block("AscendC::Add(c, a, TILE_LENGTH);"))
    assert diag.check == "surface.snippet" and "Add" in diag.message


def test_snippets_can_be_switched_off() -> None:
    text = _with_block("AscendC::Addd(c, a, b, TILE_LENGTH);")
    assert SurfaceVerifier(VerifyConfig(snippets=False)).verify(unit(), "", text) == []


def test_default_verifiers_take_their_settings_from_the_verify_config() -> None:
    names = [v.name for v in default_verifiers(VerifyConfig(cann=False))]
    assert names == ["surface", "grounding"]

    [_, grounding] = default_verifiers(VerifyConfig(cann=False, max_overlap=0.9))
    assert isinstance(grounding, GroundingVerifier) and grounding.config.max_overlap == 0.9
    verifiers: list[Verifier] = default_verifiers(None)
    assert is_accepted([d for v in verifiers for d in v.verify(unit(), "", reasoning())])


def test_a_quoted_prototype_whose_template_parameter_is_not_shown_is_not_rejected() -> None:
    # `T` is unknown to the fragment, so it is declared as a variable; "must be a type" is then no
    # evidence. A misspelt API in the same shape is still an error.
    prototype = "__aicore__ inline void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& s, const int32_t& n)"
    verifier = SurfaceVerifier(VerifyConfig(cann=False))
    assert verifier.check_block(prototype, "p.cpp")[0] == []
    errors, _ = verifier.check_block("AscendC::Addss(dst, src, s, n);", "m.cpp")
    assert errors and "Addss" in errors[0].message
