/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Tiling of mse_loss_custom, filled on the host and passed to the kernel by value.
 */
#ifndef MSE_LOSS_TILING_H
#define MSE_LOSS_TILING_H

#include <cstdint>

struct MseLossTiling {
    uint32_t totalLength; // elements in x (and in y)
    uint32_t blockLength; // elements per core; the last core may get fewer
    uint32_t tileLength;  // elements per UB tile, a multiple of 64
    float invTotal;       // 1 / totalLength, so the kernel emits the mean directly
};

#endif // MSE_LOSS_TILING_H
