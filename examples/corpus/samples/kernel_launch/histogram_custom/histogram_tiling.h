/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Tiling of histogram_custom, copied to device memory by the host.
 */
#ifndef HISTOGRAM_TILING_H
#define HISTOGRAM_TILING_H

#include <cstdint>

struct HistogramTiling {
    uint32_t totalLength;
    uint32_t blockLength; // elements per core, a multiple of 8
    uint32_t bins;        // 1..16
    float lo;
    float hi;
    float binWidth;       // (hi - lo) / bins
};

#endif // HISTOGRAM_TILING_H
