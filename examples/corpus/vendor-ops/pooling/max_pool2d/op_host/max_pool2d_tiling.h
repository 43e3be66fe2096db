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
 * \file max_pool2d_tiling.h
 * \brief Tiling data of max_pool2d (host and kernel view).
 */
#ifndef MAX_POOL2D_TILING_H
#define MAX_POOL2D_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaxPool2dTilingData)
TILING_DATA_FIELD_DEF(uint32_t, batch);
TILING_DATA_FIELD_DEF(uint32_t, channels);
TILING_DATA_FIELD_DEF(uint32_t, inH);
TILING_DATA_FIELD_DEF(uint32_t, inW);
TILING_DATA_FIELD_DEF(uint32_t, outH);
TILING_DATA_FIELD_DEF(uint32_t, outW);
TILING_DATA_FIELD_DEF(uint32_t, kernelH);
TILING_DATA_FIELD_DEF(uint32_t, kernelW);
TILING_DATA_FIELD_DEF(uint32_t, strideH);
TILING_DATA_FIELD_DEF(uint32_t, strideW);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaxPool2d, MaxPool2dTilingData)
}  // namespace optiling

#endif  // MAX_POOL2D_TILING_H
