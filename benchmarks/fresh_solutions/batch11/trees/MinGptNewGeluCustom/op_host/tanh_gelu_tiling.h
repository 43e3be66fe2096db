#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TanhGeluTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);   // total element count
  TILING_DATA_FIELD_DEF(uint64_t, perCore);    // elements per core (32B aligned)
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);    // elements per UB tile
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TanhGelu, TanhGeluTilingData)
}
