#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaledAvgPool3dBiasTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, planeCount);    // N * C * outD output planes
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerChunk);  // output rows handled per UB pass
  TILING_DATA_FIELD_DEF(float, mulFactor);        // scale_in * scale_out / 8
  TILING_DATA_FIELD_DEF(float, scaleOut);         // bias is multiplied by this
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaledAvgPool3dBiasCustom, ScaledAvgPool3dBiasTilingData)
}
