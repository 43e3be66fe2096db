// tiling data for per-channel scale -> tanh -> mul -> sigmoid
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv3dScalingTanhMultiplySigmoidCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, plane);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerPlane);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv3dScalingTanhMultiplySigmoidCustom, Conv3dScalingTanhMultiplySigmoidCustomTilingData)
}
