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
 * \file gather_rows_tiling.h
 * \brief Tiling data of gather_rows (host and kernel view).
 */
#ifndef GATHER_ROWS_TILING_H
#define GATHER_ROWS_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GatherRowsTilingData)
TILING_DATA_FIELD_DEF(uint32_t, numRows);
TILING_DATA_FIELD_DEF(uint32_t, rowLen);
TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
TILING_DATA_FIELD_DEF(uint32_t, indicesPerCore);
TILING_DATA_FIELD_DEF(uint32_t, lastCoreIndices);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GatherRows, GatherRowsTilingData)
}  // namespace optiling

#endif  // GATHER_ROWS_TILING_H
