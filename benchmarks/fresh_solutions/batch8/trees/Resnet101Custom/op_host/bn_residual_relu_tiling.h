#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BnResidualReluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planes);         // N * C
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);      // H * W
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);       // elements per UB pass (multiple of 64)
  TILING_DATA_FIELD_DEF(uint32_t, chunksPerPlane); // ceil(planeSize / chunkLen)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BnResidualReluCustom, BnResidualReluTilingData)
}
