#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dScalingAvgPoolBiasAddScalingCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, wAlign);        // input row pitch in UB (multiple of 16 floats)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // pooled rows produced per tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerSlice); // ceil(outH / rowsPerTile)
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);    // N*C*outD*tilesPerSlice
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(float, poolScale);        // scale1 * scale2 / 8
  TILING_DATA_FIELD_DEF(float, scale2);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dScalingAvgPoolBiasAddScalingCustom,
                           ConvTranspose3dScalingAvgPoolBiasAddScalingCustomTilingData)
}
