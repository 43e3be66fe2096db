/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Tiling of quantize_int8_custom (per-tensor, asymmetric).
 */
#ifndef QUANTIZE_INT8_TILING_H
#define QUANTIZE_INT8_TILING_H

#include <cstdint>

struct QuantizeInt8Tiling {
    uint32_t totalLength; // elements of x and y
    uint32_t blockLength; // elements per core, a multiple of 32 except on the last core
    uint32_t tileLength;  // elements per UB tile, a multiple of 64
    float invScale;       // 1 / scale, so the kernel multiplies instead of dividing
    float zeroPoint;      // added after scaling, before rounding
    uint32_t reserved;    // keeps the struct a multiple of 8 bytes
};

#endif // QUANTIZE_INT8_TILING_H
