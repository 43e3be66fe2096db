/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

#ifndef BENCH_MAX_POOL2D_TILING_H
#define BENCH_MAX_POOL2D_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaxPool2dTilingData)
TILING_DATA_FIELD_DEF(uint32_t, planes);
TILING_DATA_FIELD_DEF(uint32_t, height);
TILING_DATA_FIELD_DEF(uint32_t, width);
TILING_DATA_FIELD_DEF(uint32_t, outHeight);
TILING_DATA_FIELD_DEF(uint32_t, outWidth);
TILING_DATA_FIELD_DEF(uint32_t, kernelH);
TILING_DATA_FIELD_DEF(uint32_t, kernelW);
TILING_DATA_FIELD_DEF(uint32_t, strideH);
TILING_DATA_FIELD_DEF(uint32_t, strideW);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MaxPool2d, MaxPool2dTilingData)
}  // namespace optiling
#endif  // BENCH_MAX_POOL2D_TILING_H
