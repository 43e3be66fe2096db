#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaledExpLinearTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);     // number of elements
  TILING_DATA_FIELD_DEF(uint64_t, perCoreNum);   // elements for a regular core (32B multiple)
  TILING_DATA_FIELD_DEF(uint64_t, lastCoreNum);  // elements for the last core
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // elements per UB tile
  TILING_DATA_FIELD_DEF(float, alpha);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaledExpLinear, ScaledExpLinearTilingData)
}  // namespace optiling
