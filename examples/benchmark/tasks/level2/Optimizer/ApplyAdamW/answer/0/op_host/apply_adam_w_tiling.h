/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

#ifndef BENCH_APPLY_ADAM_W_TILING_H
#define BENCH_APPLY_ADAM_W_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ApplyAdamWTilingData)
TILING_DATA_FIELD_DEF(uint64_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
TILING_DATA_FIELD_DEF(uint32_t, perCoreLength);
TILING_DATA_FIELD_DEF(uint32_t, lastCoreLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(float, decayFactor);
TILING_DATA_FIELD_DEF(float, beta1);
TILING_DATA_FIELD_DEF(float, oneMinusBeta1);
TILING_DATA_FIELD_DEF(float, beta2);
TILING_DATA_FIELD_DEF(float, oneMinusBeta2);
TILING_DATA_FIELD_DEF(float, invBiasCorr2);
TILING_DATA_FIELD_DEF(float, negStepSize);
TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ApplyAdamW, ApplyAdamWTilingData)
}  // namespace optiling
#endif  // BENCH_APPLY_ADAM_W_TILING_H
