#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SquaredErrorMeanTilingData)
    TILING_DATA_FIELD_DEF(uint64_t, totalNum);     // number of elements in each input
    TILING_DATA_FIELD_DEF(uint64_t, perCoreNum);   // elements per core (multiple of 64)
    TILING_DATA_FIELD_DEF(uint32_t, usedCores);
    TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // elements per UB tile
    TILING_DATA_FIELD_DEF(float, invTotal);        // 1 / totalNum
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SquaredErrorMean, SquaredErrorMeanTilingData)
}
