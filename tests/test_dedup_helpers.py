"""Shared builders for the dedup and audit tests (no tests here)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from curate.cli import main
from dedup.config import DedupConfig
from dedup.decide import LeakFindings, audit_shard, bench_index, merge_shards
from schemas import BenchmarkItem, KernelUnit

LICENCE = """/**
 * Copyright (c) 2024 Example Vendor Co., Ltd.
 * This file is a part of the Example Vendor Operator Library. Licensed under the Example Vendor
 * Open Software License Agreement Version 2.0 (the "License"). Please refer to the License for
 * details. You may not use this file except in compliance with the License. THIS SOFTWARE IS
 * PROVIDED ON AN "AS IS" BASIS, WITHOUT WARRANTIES OF ANY KIND, EITHER EXPRESS OR IMPLIED,
 * INCLUDING BUT NOT LIMITED TO NON-INFRINGEMENT, MERCHANTABILITY, OR FITNESS FOR A PARTICULAR
 * PURPOSE. See LICENSE in the root of the software repository for the full text of the License.
 */
"""


def elementwise_kernel(
    op: str = "Add", queue: str = "inQueueX", tile: str = "tileLength", extra: str = ""
) -> str:
    """A small but complete AscendC vector kernel; parameters rename things or add code."""
    return f"""#include "kernel_operator.h"
constexpr int32_t BUFFER_NUM = 2;
class Kernel{op} {{
public:
    __aicore__ inline Kernel{op}() {{}}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength)
    {{
        this->blockLength = totalLength / AscendC::GetBlockNum();
        this->{tile} = this->blockLength / 8 / BUFFER_NUM;
        xGm.SetGlobalBuffer((__gm__ half *)x + this->blockLength * AscendC::GetBlockIdx(), this->blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + this->blockLength * AscendC::GetBlockIdx(), this->blockLength);
        zGm.SetGlobalBuffer((__gm__ half *)z + this->blockLength * AscendC::GetBlockIdx(), this->blockLength);
        pipe.InitBuffer({queue}, BUFFER_NUM, this->{tile} * sizeof(half));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, this->{tile} * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, this->{tile} * sizeof(half));
    }}
    __aicore__ inline void Process()
    {{
        for (int32_t i = 0; i < 8 * BUFFER_NUM; i++) {{
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }}
    }}
    __aicore__ inline void CopyIn(int32_t progress)
    {{
        AscendC::LocalTensor<half> xLocal = {queue}.AllocTensor<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.AllocTensor<half>();
        AscendC::DataCopy(xLocal, xGm[progress * this->{tile}], this->{tile});
        AscendC::DataCopy(yLocal, yGm[progress * this->{tile}], this->{tile});
        {queue}.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }}
    __aicore__ inline void Compute(int32_t progress)
    {{
        AscendC::LocalTensor<half> xLocal = {queue}.DeQue<half>();
        AscendC::LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        AscendC::LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        AscendC::{op}(zLocal, xLocal, yLocal, this->{tile});
        outQueueZ.EnQue<half>(zLocal);
        {queue}.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }}
    __aicore__ inline void CopyOut(int32_t progress)
    {{
        AscendC::LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
        AscendC::DataCopy(zGm[progress * this->{tile}], zLocal, this->{tile});
        outQueueZ.FreeTensor(zLocal);
    }}
{extra}
private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> {queue}, inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<half> xGm, yGm, zGm;
    uint32_t blockLength;
    uint32_t {tile};
}};

extern "C" __global__ __aicore__ void {op.lower()}_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{{
    Kernel{op} op;
    op.Init(x, y, z, 8 * 2048);
    op.Process();
}}
"""


def unrelated_kernel() -> str:
    """A kernel sharing little code with elementwise_kernel (a reduction with a scalar loop)."""
    return """#include "kernel_operator.h"
template <typename T>
__aicore__ inline T Accumulate(const __gm__ T *src, uint32_t count, T init)
{
    T acc = init;
    for (uint32_t k = 0; k < count; ++k) {
        acc = acc + src[k] * src[k];
        if ((k & 63u) == 63u) {
            acc = acc / static_cast<T>(2);
        }
    }
    return acc;
}
extern "C" __global__ __aicore__ void sum_squares(GM_ADDR input, GM_ADDR output, uint32_t count)
{
    const __gm__ float *in = reinterpret_cast<const __gm__ float *>(input);
    __gm__ float *out = reinterpret_cast<__gm__ float *>(output);
    uint32_t per = count / AscendC::GetBlockNum();
    uint32_t begin = per * AscendC::GetBlockIdx();
    out[AscendC::GetBlockIdx()] = Accumulate<float>(in + begin, per, 0.0f);
    AscendC::PipeBarrier<PIPE_ALL>();
}
"""


def unit(
    uid: str,
    code: str,
    *,
    op: str = "",
    license_name: str = "Apache-2.0",
    status: str = "full",
    path: str = "",
) -> KernelUnit:
    return KernelUnit(
        unit_id=uid,
        source="corpus",
        origin_url="",
        commit="",
        path=path or f"ops/{uid}.cpp",
        layout="standalone",
        op_name=op,
        kernel_name=op,
        code=code,
        license=license_name,
        parse_status=status,
    )


def item(
    iid: str, answers: list[str], *, task: str = "AddCustom", level: int = 1, benchmark: str = "bench"
) -> BenchmarkItem:
    return BenchmarkItem(
        item_id=iid,
        benchmark=benchmark,
        task_name=task,
        op_name=task,
        level=level,
        category="elementwise",
        path=f"tasks/level{level}/{task}",
        answers=answers,
        answer_paths=[
            f"tasks/level{level}/{task}/answer/{k}/op_kernel/kernel.cpp" for k in range(len(answers))
        ],
    )


def run_cli(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str | Path
) -> tuple[int, str, str]:
    """Run `curate ARGS` in this process, as the console script would; returns (status, out, err)."""
    monkeypatch.setattr(sys, "argv", ["curate", *map(str, args)])
    try:
        main()
        status = 0
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    out, err = capsys.readouterr()
    return status, out, err


def run_audit(
    units: list[KernelUnit], items: list[BenchmarkItem], cfg: DedupConfig
) -> tuple[LeakFindings, dict[str, int]]:
    """`curate audit`'s path for units in memory (one shard), its findings naming positions in
    `units` (a shard keeps only the units a finding names)."""
    index = bench_index(items, cfg)
    kept, findings, counts = merge_shards([audit_shard(units, index, cfg)], items, index)
    position = {id(u): k for k, u in enumerate(units)}
    for leak in findings.leaks:
        leak.unit = position[id(kept[leak.unit])]
    findings.name_matches = [(position[id(kept[u])], i) for u, i in findings.name_matches]
    return findings, counts
