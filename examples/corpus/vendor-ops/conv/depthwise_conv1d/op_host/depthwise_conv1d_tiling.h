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
 * \file depthwise_conv1d_tiling.h
 * \brief Tiling data of depthwise_conv1d (host and kernel view).
 */
#ifndef DEPTHWISE_CONV1D_TILING_H
#define DEPTHWISE_CONV1D_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DepthwiseConv1dTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalRows);
TILING_DATA_FIELD_DEF(uint32_t, channels);
TILING_DATA_FIELD_DEF(uint32_t, inLen);
TILING_DATA_FIELD_DEF(uint32_t, outLen);
TILING_DATA_FIELD_DEF(uint32_t, kernelSize);
TILING_DATA_FIELD_DEF(uint32_t, dilation);
TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
TILING_DATA_FIELD_DEF(uint32_t, tailCoreRows);
TILING_DATA_FIELD_DEF(uint32_t, tileLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DepthwiseConv1d, DepthwiseConv1dTilingData)
}  // namespace optiling

#endif  // DEPTHWISE_CONV1D_TILING_H
