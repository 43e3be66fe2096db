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
 * \file quantize_per_tensor_tiling.h
 * \brief Tiling data of quantize_per_tensor (host and kernel view).
 */
#ifndef QUANTIZE_PER_TENSOR_TILING_H
#define QUANTIZE_PER_TENSOR_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(QuantizePerTensorTilingData)
TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
TILING_DATA_FIELD_DEF(uint32_t, perCoreLength);
TILING_DATA_FIELD_DEF(uint32_t, lastCoreLength);
TILING_DATA_FIELD_DEF(uint32_t, tileLength);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF(float, offset);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(QuantizePerTensor, QuantizePerTensorTilingData)
}  // namespace optiling

#endif  // QUANTIZE_PER_TENSOR_TILING_H
