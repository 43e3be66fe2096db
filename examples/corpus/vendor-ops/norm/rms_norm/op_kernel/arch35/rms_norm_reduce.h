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
 * \file rms_norm_reduce.h
 * \brief Row statistic of rms_norm: 1 / sqrt(mean(x^2) + eps), computed on the vector unit.
 */
#ifndef RMS_NORM_REDUCE_H
#define RMS_NORM_REDUCE_H

#include "../rms_norm_common.h"

namespace RmsNormKernel {

// xf: one row widened to fp32; sq and work: scratch of colsAligned floats; stat: one block.
// On return stat[0] holds the reciprocal RMS of the row.
__aicore__ inline void RowInverseRms(const LocalTensor<float>& stat, const LocalTensor<float>& xf,
                                     const LocalTensor<float>& sq, const LocalTensor<float>& work,
                                     const RmsNormSlice& slice)
{
    Mul(sq, xf, xf, slice.cols);
    ReduceSum(stat, sq, work, static_cast<int32_t>(slice.cols));
    Muls(stat, stat, slice.invCols, 1);
    Adds(stat, stat, slice.epsilon, 1);
    Rsqrt(stat, stat, 1);
}

}  // namespace RmsNormKernel

#endif  // RMS_NORM_REDUCE_H
