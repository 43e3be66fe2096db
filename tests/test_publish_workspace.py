"""A small, realistic workspace for the publishing tests, written straight through the schemas
(units, decisions, annotations, attempts, leakage report, meta.json), so these tests do not
depend on ingest, dedup or annotate running first. Also tests that the fixture itself is sound."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from curate.workspace import Workspace
from schemas import (
    Annotation,
    Attempt,
    Decision,
    Diagnostic,
    KernelClass,
    KernelUnit,
    OpDef,
    Param,
    TensorSpec,
    TilingField,
    read_records,
    stable_id,
    write_records,
)
from schemas.runs import AnnotateRun, DedupRun, IngestRun, VerifyRun

CANN_HEADER = (
    "/**\n"
    " * Copyright (c) 2025 Huawei Technologies Co., Ltd.\n"
    " * This file is a part of the CANN Open Software.\n"
    ' * Licensed under CANN Open Software License Agreement Version 2.0 (the "License").\n'
    " */\n"
)
APACHE_HEADER = "// SPDX-License-Identifier: Apache-2.0\n// Copyright 2025 The ascend-kernels authors\n"

KERNEL_TEMPLATE = """#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class Kernel{cls} {{
public:
    __aicore__ inline Kernel{cls}() {{}}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {{
        this->blockLength = totalLength / AscendC::GetBlockNum();
        this->tileNum = tileNum;
        this->tileLength = this->blockLength / tileNum / BUFFER_NUM;
        xGm.SetGlobalBuffer((__gm__ half *)x + this->blockLength * AscendC::GetBlockIdx(), this->blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + this->blockLength * AscendC::GetBlockIdx(), this->blockLength);
        zGm.SetGlobalBuffer((__gm__ half *)z + this->blockLength * AscendC::GetBlockIdx(), this->blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, this->tileLength * sizeof(half));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, this->tileLength * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, this->tileLength * sizeof(half));
    }}
    __aicore__ inline void Process()
    {{
        int32_t loopCount = this->tileNum * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; i++) {{
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }}
    }}

private:
    __aicore__ inline void Compute(int32_t progress)
    {{
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        AscendC::LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        AscendC::{api}(zLocal, xLocal, yLocal, this->tileLength);
        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }}
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<half> xGm, yGm, zGm;
    uint32_t blockLength, tileNum, tileLength;
}};

extern "C" __global__ __aicore__ void {kernel}(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(tilingData, tiling);
    Kernel{cls} op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}}
"""

REASONING = """## Operator analysis
{op} is element-wise over two half-precision inputs of the same shape: z[i] = {api}(x[i], y[i]).
## Work split
The total length is split evenly over the AI cores with GetBlockNum(); each core takes blockLength elements
at offset blockLength * GetBlockIdx().
## Tiling
Each core cuts its block into tileNum tiles, halved again for double buffering (BUFFER_NUM = 2), so the
Unified Buffer holds three queues of tileLength halves, each a multiple of 32 bytes.
## Pipeline
CopyIn moves a tile of x and y from global memory with DataCopy into VECIN queues, Compute calls
AscendC::{api} on the local tensors, CopyOut moves z back from the VECOUT queue.
## Host tiling
The host tiling function fills totalLength and tileNum and sets the block dimension."""

BAD_REASONING = """## Operator analysis
{op} uses AscendC::{api}d on the whole tensor at once with a single buffer.
## Tiling
No tiling is needed because the Unified Buffer holds the whole input."""


@dataclass(slots=True)
class Spec:
    """One unit of the fixture: what dedup decided and what the verifier said."""

    op: str
    kernel: str
    path: str
    decision: str = "keep"  # keep | duplicate | leak
    verdict: str = "accepted"  # accepted | rejected | failed | pending | none (no annotation)
    rejected_rounds: int = 0  # rejected attempts before the final one
    license: str = "CANN-2.0"
    category: str = "elementwise"
    level: int = 1
    api: str = "Add"
    extra: dict[str, str] = field(default_factory=dict)  # field -> text appended (to plant content)


DEFAULT_SPECS = [
    Spec("AddCustom", "add_custom", "operators/add_custom/op_kernel/add_custom.cpp", rejected_rounds=1),
    Spec("AddCustom", "add_custom_arch35", "operators/add_custom/op_kernel/arch35/add_custom.cpp"),
    Spec("SubCustom", "sub_custom", "operators/sub_custom/op_kernel/sub_custom.cpp", api="Sub"),
    Spec(
        "MulCustom",
        "mul_custom",
        "operators/mul_custom/op_kernel/mul_custom.cpp",
        api="Mul",
        rejected_rounds=2,
    ),
    Spec(
        "DivCustom",
        "div_custom",
        "operators/div_custom/op_kernel/div_custom.cpp",
        api="Div",
        license="Apache-2.0",
    ),
    Spec(
        "MaxCustom",
        "max_custom",
        "operators/max_custom/op_kernel/max_custom.cpp",
        api="Max",
        verdict="rejected",
        rejected_rounds=1,
    ),
    Spec(
        "MinCustom",
        "min_custom",
        "operators/min_custom/op_kernel/min_custom.cpp",
        api="Min",
        verdict="failed",
    ),
    Spec(
        "Relu",
        "relu_custom",
        "operators/relu/op_kernel/relu.cpp",
        api="Relu",
        category="activation",
        verdict="pending",
    ),
    Spec(
        "Gelu",
        "gelu_custom",
        "operators/gelu/op_kernel/gelu.cpp",
        api="Gelu",
        category="activation",
        license="Apache-2.0",
    ),
    Spec(
        "ReduceSum",
        "reduce_sum",
        "operators/reduce_sum/op_kernel/reduce_sum.cpp",
        api="ReduceSum",
        category="reduction",
        level=2,
    ),
    Spec(
        "LayerNorm",
        "layer_norm",
        "operators/layer_norm/op_kernel/layer_norm.cpp",
        api="LayerNorm",
        category="normalization",
        level=2,
    ),
    Spec(
        "MatMul",
        "matmul_custom",
        "operators/matmul/op_kernel/matmul_custom.cpp",
        api="Mmad",
        category="matmul",
        level=2,
    ),
    Spec(
        "TopK", "topk_custom", "operators/topk/op_kernel/topk.cpp", api="Sort", category="sort/topk", level=3
    ),
    Spec(
        "Softmax",
        "softmax_custom",
        "operators/softmax/op_kernel/softmax.cpp",
        api="SoftMax",
        category="activation",
        level=2,
        decision="leak",
    ),
    Spec(
        "SoftmaxV2",
        "softmax_v2",
        "operators/softmax_v2/op_kernel/softmax_v2.cpp",
        api="SoftMax",
        category="activation",
        level=2,
        decision="duplicate",
    ),
    Spec("Cast", "cast_custom", "operators/cast/op_kernel/cast.cpp", api="Cast", verdict="none"),
]

SOURCE = "ascend-ops"
ORIGIN = "https://gitcode.com/ascend-community/ascend-ops.git"
COMMIT = "4f5c2a91d0b7e3c86a1f9e2d4b6c8a0e1f3d5b7c"
TEACHER = "qwen2.5-coder-32b-instruct"
PROMPT_VERSION = "reverse-cot-v3"
GEN_PARAMS = json.dumps({"max_tokens": 2048, "seed": 7, "temperature": 0.6, "top_p": 0.95}, sort_keys=True)
VERIFIERS = ["api_surface", "clang_typecheck", "grounding.api_exists", "grounding.numbers"]


def unit_for(spec: Spec) -> KernelUnit:
    header = CANN_HEADER if spec.license.startswith("CANN") else APACHE_HEADER
    code = (
        header
        + KERNEL_TEMPLATE.format(cls=spec.op, kernel=spec.kernel, api=spec.api)
        + spec.extra.get("code", "")
    )
    return KernelUnit(
        unit_id=stable_id(SOURCE, spec.path, spec.kernel),
        source=SOURCE,
        origin_url=ORIGIN,
        commit=COMMIT,
        path=spec.path,
        layout="msopgen",
        op_name=spec.op,
        kernel_name=spec.kernel,
        params=[Param(n, "GM_ADDR") for n in ("x", "y", "z", "workspace", "tiling")],
        kernel_classes=[KernelClass(f"Kernel{spec.op}", ["Init", "Process", "CopyIn", "Compute", "CopyOut"])],
        tiling_struct=f"{spec.op}TilingData",
        tiling_fields=[TilingField("totalLength", "uint32_t"), TilingField("tileNum", "uint32_t")],
        host_tiling="TilingFunc",
        op_def=OpDef(
            spec.op,
            inputs=[
                TensorSpec("x", dtypes=["DT_FLOAT16"], formats=["FORMAT_ND"]),
                TensorSpec("y", dtypes=["DT_FLOAT16"]),
            ],
            outputs=[TensorSpec("z", dtypes=["DT_FLOAT16"], formats=["FORMAT_ND"])],
            socs=["ascend910b"],
        ),
        apis=sorted({spec.api, "DataCopy", "GetBlockIdx", "GetBlockNum"}),
        queue_positions=["VECIN", "VECOUT"],
        buffer_num=2,
        core_type="cube" if spec.category == "matmul" else "vector",
        category=spec.category,
        level=spec.level,
        license=spec.license,
        code=code,
        host_code=f'#include "{spec.kernel}_tiling.h"\nstatic ge::graphStatus TilingFunc(gert::TilingContext *context);\n',
        includes=[],
        loc=code.count("\n"),
    )


def instruction_for(spec: Spec) -> str:
    return (
        f"Write an AscendC kernel `{spec.kernel}` for the operator {spec.op} on Ascend 910B: inputs x and y "
        "(float16, ND, same shape), output z (float16). Split the work over all AI cores, tile through the "
        "Unified Buffer with double buffering, and read totalLength and tileNum from the tiling data."
    )


def make_workspace(root: Path, specs: list[Spec] | None = None, with_attempts: bool = True) -> Workspace:
    """Write every table a `curate build` reads; returns the workspace."""
    specs = DEFAULT_SPECS if specs is None else specs
    ws = Workspace(root)
    ws.create()
    units = [unit_for(s) for s in specs]
    decisions, annotations, attempts = [], [], []
    kept_ids = {}
    for spec, unit in zip(specs, units, strict=True):
        decisions.append(_decision(spec, unit, kept_ids))
        if spec.verdict == "none":
            continue
        ann, unit_attempts = _annotation(spec, unit)
        annotations.append(ann)
        attempts.extend(unit_attempts)
    write_records(ws.units, KernelUnit, units)
    write_records(ws.decisions, Decision, decisions)
    write_records(ws.annotations, Annotation, annotations)
    if with_attempts:
        write_records(ws.root / "attempts.parquet", Attempt, attempts)
    leaks = [d for d in decisions if d.decision == "leak"]
    (ws.reports).mkdir(parents=True, exist_ok=True)
    (ws.reports / "leakage.json").write_text(
        json.dumps(
            {
                "leaks": [
                    {
                        "unit_id": d.unit_id,
                        "benchmark": d.match_source,
                        "item_id": d.match_id,
                        "score": d.score,
                    }
                    for d in leaks
                ]
            },
            indent=2,
        )
    )
    ws.record_run(IngestRun(config={"parser_version": "1"}, source=SOURCE, rows=len(units)))
    ws.record_run(
        DedupRun(
            config={
                "threshold": 0.7,
                "num_perm": 128,
                "ngram": 5,
                "containment_threshold": 0.8,
                "task_leaks": "flag",
            },
            counts={"units": len(units), "benchmark_items": 3, "leaks": len(leaks)},
            benchmarks=["npukernelbench"],
        )
    )
    ws.record_run(AnnotateRun(config={"model": TEACHER, "prompt_version": PROMPT_VERSION, "concurrency": 16}))
    ws.record_run(VerifyRun(config={"max_rounds": 3}, verifiers=VERIFIERS))
    return ws


def _decision(spec: Spec, unit: KernelUnit, kept_ids: dict[str, str]) -> Decision:
    if spec.decision == "leak":
        return Decision(
            unit.unit_id,
            "leak",
            match_id=stable_id("npukernelbench", spec.op),
            match_source="npukernelbench",
            match_path=f"tasks/level{spec.level}/Activation/{spec.op}/answer/1/op_kernel/{spec.kernel}.cpp",
            score=0.93,
            method="containment",
        )
    if spec.decision == "duplicate":
        rep = next(iter(kept_ids.values()))
        return Decision(
            unit.unit_id, "duplicate", cluster_id="c1", match_id=rep, score=0.88, method="jaccard"
        )
    kept_ids[spec.op] = unit.unit_id
    return Decision(unit.unit_id, "keep", cluster_id=f"c-{unit.unit_id}")


def _annotation(spec: Spec, unit: KernelUnit) -> tuple[Annotation, list[Attempt]]:
    good = REASONING.format(op=spec.op, api=spec.api) + spec.extra.get("reasoning", "")
    bad = BAD_REASONING.format(op=spec.op, api=spec.api)
    attempts = [
        Attempt(
            unit.unit_id,
            r + 1,
            f"{bad}\n(round {r + 1})",
            "rejected",
            [
                Diagnostic(
                    "grounding.api_exists",
                    "error",
                    f"AscendC::{spec.api}d does not exist; the kernel uses AscendC::{spec.api}",
                )
            ],
            TEACHER,
            PROMPT_VERSION,
            f"2025-06-0{r + 1}T10:00:00Z",
        )
        for r in range(spec.rejected_rounds)
    ]
    final_round = spec.rejected_rounds + 1
    verdict = spec.verdict
    reasoning = good if verdict == "accepted" else f"{bad}\n(final)"
    # A rejected verdict always comes with the errors that rejected it (as the annotation loop writes).
    why = [Diagnostic("grounding.api_exists", "error", f"AscendC::{spec.api}d does not exist")]
    final_diagnostics = why if verdict == "rejected" else []
    if verdict in ("accepted", "rejected"):
        attempts.append(
            Attempt(
                unit.unit_id,
                final_round,
                reasoning,
                verdict,
                final_diagnostics,
                TEACHER,
                PROMPT_VERSION,
                "2025-06-09T10:00:00Z",
            )
        )
    ann = Annotation(
        unit_id=unit.unit_id,
        teacher_model=TEACHER,
        prompt_version=PROMPT_VERSION,
        instruction=instruction_for(spec),
        reasoning=reasoning if verdict != "pending" else "",
        answer=unit.code,
        verdict=verdict,
        attempts=final_round,
        diagnostics=[Diagnostic("grounding.numbers", "warning", "tile length not stated")]
        if verdict == "accepted"
        else final_diagnostics,
        prompt_tokens=850 + len(spec.op),
        completion_tokens=610 + 3 * len(spec.op),
        latency_s=4.2,
        created_at="2025-06-09T10:00:00Z",
        teacher_fingerprint="fp_3b1c",
        generation_params=GEN_PARAMS,
    )
    return ann, attempts


def test_fixture_tables_read_back_through_the_schemas(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path / "ws")
    units = read_records(ws.units, KernelUnit)
    decisions = read_records(ws.decisions, Decision)
    assert len(units) == len(DEFAULT_SPECS) == len(decisions)
    assert {d.decision for d in decisions} == {"keep", "duplicate", "leak"}
    annotations = read_records(ws.annotations, Annotation)
    assert {a.verdict for a in annotations} == {"accepted", "rejected", "failed", "pending"}
    attempts = read_records(ws.root / "attempts.parquet", Attempt)
    assert any(a.verdict == "rejected" for a in attempts) and any(a.verdict == "accepted" for a in attempts)
