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
 * \file apply_adam_w_tiling_data.h
 * \brief Tiling data of apply_adam_w. The host folds the step-dependent scalars in advance.
 */
#ifndef APPLY_ADAM_W_TILING_DATA_H
#define APPLY_ADAM_W_TILING_DATA_H

#include <cstdint>

struct ApplyAdamWTilingData {
    uint64_t totalLength;
    uint32_t usedCoreNum;
    uint32_t perCoreLength;
    uint32_t lastCoreLength;
    uint32_t tileLength;
    float decayFactor;     // 1 - lr * weight_decay
    float beta1;
    float oneMinusBeta1;
    float beta2;
    float oneMinusBeta2;
    float invBiasCorr2;    // 1 / (1 - beta2^t)
    float negStepSize;     // -lr / (1 - beta1^t)
    float epsilon;
};

#endif  // APPLY_ADAM_W_TILING_DATA_H
