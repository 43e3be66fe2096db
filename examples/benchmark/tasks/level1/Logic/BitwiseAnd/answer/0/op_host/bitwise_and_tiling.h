/*
 * Copyright 2026 Example Benchmark authors.
 * SPDX-License-Identifier: Apache-2.0
 *
 * Licensed under the Apache License, Version 2.0. You may obtain a copy of the License at
 * http://www.apache.org/licenses/LICENSE-2.0 . Unless required by applicable law or agreed
 * to in writing, this file is distributed on an "AS IS" BASIS, without warranties or
 * conditions of any kind. See the LICENSE file at the root of this benchmark.
 */

#ifndef BENCH_BITWISE_AND_TILING_H
#define BENCH_BITWISE_AND_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BitwiseAndTilingData)
TILING_DATA_FIELD_DEF(uint32_t, bytesPerElem);
TILING_DATA_FIELD_DEF(uint64_t, elemsPerCore);
TILING_DATA_FIELD_DEF(uint64_t, elemsLastCore);
TILING_DATA_FIELD_DEF(uint32_t, chunkLanes);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(BitwiseAnd, BitwiseAndTilingData)
}  // namespace optiling
#endif  // BENCH_BITWISE_AND_TILING_H
