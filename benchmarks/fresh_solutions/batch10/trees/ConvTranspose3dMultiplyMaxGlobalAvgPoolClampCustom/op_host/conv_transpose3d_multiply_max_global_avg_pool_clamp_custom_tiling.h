#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, poolD);
  TILING_DATA_FIELD_DEF(uint32_t, poolH);
  TILING_DATA_FIELD_DEF(uint32_t, poolW);
  TILING_DATA_FIELD_DEF(uint32_t, rowPitch);      // UB pitch of an input row (floats, multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerPass);   // pooled rows handled per pass
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraPlanes);
  TILING_DATA_FIELD_DEF(uint32_t, resCapacity);   // result buffer length per core (aligned)
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(float, invCount);         // 1 / (poolD * poolH * poolW)
  TILING_DATA_FIELD_DEF(float, clampMin);
  TILING_DATA_FIELD_DEF(float, clampMax);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustom,
                           ConvTranspose3dMultiplyMaxGlobalAvgPoolClampCustomTilingData)
}
