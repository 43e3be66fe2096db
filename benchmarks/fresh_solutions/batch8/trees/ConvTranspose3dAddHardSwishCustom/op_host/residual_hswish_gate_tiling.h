#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ResidualHswishGateTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);   // element count of x
  TILING_DATA_FIELD_DEF(uint64_t, perCoreLength); // elements owned by cores [0, blockDim-1), multiple of 8
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // elements per UB tile, multiple of 64
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ResidualHswishGateCustom, ResidualHswishGateTilingData)
}
