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
  TILING_DATA_FIELD_DEF(uint32_t, alignW);      // padded input row length in UB (multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, ohTile);      // output rows produced per UB pass
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);  // N * C * outD output planes
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailCores);   // first tailCores cores take one more plane
  TILING_DATA_FIELD_DEF(float, mulFactor);      // scale1 * scale2 / 8
  TILING_DATA_FIELD_DEF(float, scale2);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dScalingAvgPoolBiasAddScalingCustom,
                           ConvTranspose3dScalingAvgPoolBiasAddScalingCustomTilingData)
}
