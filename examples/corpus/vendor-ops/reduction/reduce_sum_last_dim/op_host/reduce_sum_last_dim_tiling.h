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
 * \file reduce_sum_last_dim_tiling.h
 * \brief Tiling data of reduce_sum_last_dim (host and kernel view).
 */
#ifndef REDUCE_SUM_LAST_DIM_TILING_H
#define REDUCE_SUM_LAST_DIM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReduceSumLastDimTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF(uint32_t, cols);
TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
TILING_DATA_FIELD_DEF(uint32_t, tailCoreRows);
TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
TILING_DATA_FIELD_DEF(uint32_t, chunkCols);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReduceSumLastDim, ReduceSumLastDimTilingData)
}  // namespace optiling

#endif  // REDUCE_SUM_LAST_DIM_TILING_H
