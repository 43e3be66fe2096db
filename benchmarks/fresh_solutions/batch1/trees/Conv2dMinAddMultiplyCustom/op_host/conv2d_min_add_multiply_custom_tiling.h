#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dMinAddMultiplyCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeCount);     // N * C
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);      // H * W of the conv output
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraPlanes);    // first extraPlanes cores take one more plane
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, constantValue);
  TILING_DATA_FIELD_DEF(float, scalingFactor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dMinAddMultiplyCustom, Conv2dMinAddMultiplyCustomTilingData)
}
