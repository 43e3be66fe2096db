#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dClampMinDivideCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);   // N * C * D * H * W
  TILING_DATA_FIELD_DEF(uint64_t, coreLength);    // elements per core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, spatialSize);   // D * H * W
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, minValue);
  TILING_DATA_FIELD_DEF(float, invDivisor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dClampMinDivideCustom, ConvTranspose3dClampMinDivideCustomTilingData)
}
