/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Entry of the AdamW update sample. The kernel class lives in
 * adam_update_kernel.h; the tiling is read from GM at the address `tiling`.
 */
#include "kernel_operator.h"
#include "adam_update_tiling.h"
#include "kernel_utils.h"
#include "adam_update_kernel.h"

extern "C" __global__ __aicore__ void adam_update_custom(GM_ADDR param, GM_ADDR grad, GM_ADDR expAvg,
                                                         GM_ADDR expAvgSq, GM_ADDR workspace, GM_ADDR tiling)
{
    AdamUpdateTiling tilingData;
    kernel_utils::CopyTiling(&tilingData, tiling);
    if (tilingData.totalLength == 0) {
        return;
    }
    KernelAdamUpdate op;
    op.Init(param, grad, expAvg, expAvgSq, tilingData);
    op.Process();
}
