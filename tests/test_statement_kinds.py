"""Instructions follow the unit's facts: requirements by kernel kind and target, sample READMEs
without a function entry still state what the sample does, constraints are clean sentences."""

from __future__ import annotations

import pytest

from annotate.requirements import kernel_kind, requirements
from annotate.statement import clean_constraint, lead_paragraph
from annotate.tasks.kernel_reasoning import build_instruction
from schemas import OpDef, OperatorDoc
from tests.test_annotate_task import make_unit

VECTOR = "TQue<QuePosition::VECIN, 2> q; pipe.InitBuffer(q, 2, 256); Add(c, a, b, n);"
KINDS = [
    ("vector", VECTOR, "vector-queues", "TPipe/TQue"),
    ("vector", "LocalTensor<float> t = alloc.Alloc<float>(64); Duplicate(t, 0.0f, 64);", "vector", "no TQue"),
    (
        "vector",
        "__simt_vf__ void f() { y[threadIdx.x] = x[threadIdx.x]; } asc_vf_call<f>(dim3(1024));",
        "simt",
        "SIMT",
    ),
    ("cube", "Mmad(c, a, b, p); // A1 A2 B1 B2 CO1", "cube", "L0C"),
    ("mixed", "Mmad(c, a, b, p); TQue<QuePosition::VECIN, 1> q; // CO1", "mixed", "cube and vector"),
    ("mixed", "using Kernel = Catlass::Gemm::Kernel::BasicMatmul<...>;", "template", "template library"),
]


@pytest.mark.parametrize(("core", "code", "kind", "phrase"), KINDS, ids=[k[2] for k in KINDS])
def test_requirements_follow_the_kernel_kind(core: str, code: str, kind: str, phrase: str) -> None:
    unit = make_unit(code=code, core_type=core, apis=["Mmad"] if "Mmad" in code else ["Add"])
    assert kernel_kind(unit) == kind
    text = build_instruction(unit)
    assert phrase in text
    if kind not in ("vector-queues",):
        assert "TPipe/TQue pipeline" not in text  # never demanded where the kernel has no queues


def test_the_target_soc_is_the_units_own() -> None:
    arch35 = make_unit(code=VECTOR, path="math/x/op_kernel/arch35/x_apt.cpp")
    assert "Ascend950" in requirements(arch35)
    doc = OperatorDoc(
        "x/README.md", "operator-readme", "en", function="y = x", products=["Atlas A2 training series"]
    )
    unit = make_unit(code=VECTOR, doc=doc, op_def=OpDef("X", socs=["ascend950"]))
    text = build_instruction(unit)
    assert "Atlas A2" not in text and "ascend950" in text


def test_a_sample_readme_without_a_function_entry_states_its_lead_paragraph() -> None:
    raw = "# N-Buffer\n## 快速开始\n\n步骤1：编译。\n\n## 1. 原理\n\nN-Buffer overlaps MTE2 loads with Mmad by cycling N L1 buffers.\n"
    assert lead_paragraph(raw) == "N-Buffer overlaps MTE2 loads with Mmad by cycling N L1 buffers."
    doc = OperatorDoc("s/README.md", "sample-readme", "en", title="N-Buffer", raw=raw)
    assert "What the sample does (N-Buffer): N-Buffer overlaps" in build_instruction(make_unit(doc=doc))


def test_constraints_are_clean_sentences() -> None:
    assert clean_constraint("确定性计算：") == ""
    assert clean_constraint("aclnnTrunc&aclnnInplaceTrunc默认确定性实现。") == ""
    assert clean_constraint("x, gamma, yOutsupportedFLOAT32") == "x, gamma, yOut supported FLOAT32"
    assert clean_constraint("self 和 other 的数据类型必须一致。") == "self 和 other 的数据类型必须一致。"
