/**
 * Copyright (c) 2026 Ascend-CoT curate authors.
 *
 * This example file belongs to the curate example corpus and is offered under the
 * CANN Open Software License Agreement Version 2.0 (the "License"). Use, copy or modify
 * it only as the License allows. The LICENSE file at the root of this example repository
 * says where the official text of the License is published.
 * The file is provided as is, without warranty of any kind, express or implied, including
 * fitness for a particular purpose.
 */

/*!
 * \file rms_norm.cpp
 * \brief rms_norm kernel entry: y = x / sqrt(mean(x^2) + eps) * gamma, rstd per row.
 */
#include "rms_norm_common.h"
#include "arch35/rms_norm_impl.h"

using namespace RmsNormKernel;

extern "C" __global__ __aicore__ void rms_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR rstd, GM_ADDR workspace,
                                               GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    const RmsNormSlice slice = MakeSlice(GetBlockIdx(), tilingData.rowsPerCore, tilingData.numRows,
                                         tilingData.numCols, tilingData.epsilon);
    if (slice.rowCount == 0) {
        return;
    }
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220
    KernelRmsNorm<DTYPE_X, true> op;
#else
    KernelRmsNorm<DTYPE_X, false> op;
#endif
    op.Init(x, gamma, y, rstd, slice);
    op.Process();
}
