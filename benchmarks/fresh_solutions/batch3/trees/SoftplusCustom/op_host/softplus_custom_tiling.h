#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftplusCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, perCore);     // elements per core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);  // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SoftplusCustom, SoftplusCustomTilingData)
}
