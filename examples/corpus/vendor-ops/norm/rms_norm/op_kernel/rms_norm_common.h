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
 * \file rms_norm_common.h
 * \brief Constants and small helpers shared by the rms_norm kernel variants.
 */
#ifndef RMS_NORM_COMMON_H
#define RMS_NORM_COMMON_H

#include "kernel_operator.h"

namespace RmsNormKernel {
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t UB_BLOCK_BYTES = 32;
constexpr uint32_t FP32_PER_BLOCK = UB_BLOCK_BYTES / sizeof(float);

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (b == 0) ? 0 : (a + b - 1) / b;
}

__aicore__ inline uint32_t AlignUp(uint32_t a, uint32_t b)
{
    return CeilDiv(a, b) * b;
}

// What one core needs to know about its share of the [rows, cols] input.
struct RmsNormSlice {
    uint64_t firstRow;
    uint32_t rowCount;
    uint32_t cols;
    uint32_t colsAligned;  // cols rounded up to 32 bytes of fp32
    float invCols;
    float epsilon;
};

__aicore__ inline RmsNormSlice MakeSlice(uint32_t coreIdx, uint32_t rowsPerCore, uint32_t totalRows, uint32_t cols,
                                         float epsilon)
{
    RmsNormSlice slice{};
    slice.firstRow = static_cast<uint64_t>(coreIdx) * rowsPerCore;
    const uint64_t end = slice.firstRow + rowsPerCore;
    slice.rowCount = (end <= totalRows) ? rowsPerCore
                                        : (slice.firstRow < totalRows ? totalRows - slice.firstRow : 0);
    slice.cols = cols;
    slice.colsAligned = AlignUp(cols, FP32_PER_BLOCK);
    slice.invCols = 1.0f / static_cast<float>(cols);
    slice.epsilon = epsilon;
    return slice;
}
}  // namespace RmsNormKernel

#endif  // RMS_NORM_COMMON_H
