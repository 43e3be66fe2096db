#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TanhGeluTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, total);
  TILING_DATA_FIELD_DEF(uint64_t, blockLen);   // elements per core (aligned), last core takes the rest
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TanhGelu, TanhGeluTilingData)
}
