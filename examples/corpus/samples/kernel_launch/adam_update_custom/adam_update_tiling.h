/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Tiling of adam_update_custom. The host writes it to device memory and passes
 * its address; the bias corrections of step t are folded in on the host.
 */
#ifndef ADAM_UPDATE_TILING_H
#define ADAM_UPDATE_TILING_H

#include <cstdint>

struct AdamUpdateTiling {
    uint32_t totalLength;   // elements of param / grad / exp_avg / exp_avg_sq
    uint32_t formerNum;     // the first formerNum cores take formerLength elements
    uint32_t formerLength;
    uint32_t tailLength;    // every other core takes tailLength elements
    uint32_t tileLength;    // elements per UB tile, a multiple of 8
    float lr;
    float beta1;
    float beta2;
    float eps;
    float weightDecay;      // decoupled (AdamW) decay; 0 gives plain Adam
    float biasCorrection1;  // 1 - beta1^t
    float biasCorrection2Sqrt; // sqrt(1 - beta2^t)
};

#endif // ADAM_UPDATE_TILING_H
