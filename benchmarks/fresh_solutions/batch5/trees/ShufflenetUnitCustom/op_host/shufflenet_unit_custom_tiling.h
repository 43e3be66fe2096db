#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ShufflenetUnitCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);     // H * W
  TILING_DATA_FIELD_DEF(uint32_t, totalPlanes);   // N * C
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraPlanes);   // first extraPlanes cores get one more
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // elements per copy step
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ShufflenetUnitCustom, ShufflenetUnitCustomTilingData)
}
