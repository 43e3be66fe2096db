/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

#ifndef BENCH_MSE_LOSS_TILING_H
#define BENCH_MSE_LOSS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MseLossTilingData)
TILING_DATA_FIELD_DEF(uint64_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
TILING_DATA_FIELD_DEF(uint32_t, perCoreLength);
TILING_DATA_FIELD_DEF(uint32_t, lastCoreLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(float, invTotal);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MseLoss, MseLossTilingData)
}  // namespace optiling
#endif  // BENCH_MSE_LOSS_TILING_H
