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
 * \file max_pool2d_common.h
 * \brief Pieces shared by the NCHW and the NHWC max_pool2d kernels.
 */
#ifndef MAX_POOL2D_COMMON_H
#define MAX_POOL2D_COMMON_H

#include "kernel_operator.h"

namespace MaxPool2dKernel {
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr float NEG_INF = -3.402823466e+38f;  // lowest finite float: identity of max

// A contiguous range of work items (output rows or output pixels) owned by one core.
struct WorkRange {
    uint64_t begin;
    uint64_t end;
};

__aicore__ inline WorkRange SplitWork(uint64_t total, uint32_t coreIdx, uint32_t coreNum)
{
    const uint64_t per = (total + coreNum - 1) / coreNum;
    WorkRange range{per * coreIdx, per * (coreIdx + 1)};
    if (range.begin > total) {
        range.begin = total;
    }
    if (range.end > total) {
        range.end = total;
    }
    return range;
}
}  // namespace MaxPool2dKernel

#endif  // MAX_POOL2D_COMMON_H
