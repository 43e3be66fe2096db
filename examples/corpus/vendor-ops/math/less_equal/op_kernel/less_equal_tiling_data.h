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
 * \file less_equal_tiling_data.h
 * \brief Tiling data shared by the host tiling function and the kernel (plain struct form).
 */
#ifndef LESS_EQUAL_TILING_DATA_H
#define LESS_EQUAL_TILING_DATA_H

#include <cstdint>

struct LessEqualTilingData {
    uint64_t totalLength;   // elements in x1 (x2 has the same shape)
    uint32_t usedCoreNum;   // cores that received work
    uint32_t perCoreLength; // elements per core, multiple of tileLength except on the last core
    uint32_t lastCoreLength;
    uint32_t tileLength;    // elements per tile; tileLength * sizeof(T) is a multiple of 256 bytes
};

#endif  // LESS_EQUAL_TILING_DATA_H
