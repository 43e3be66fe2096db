#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LeakyOffsetSaturateGeluTiling)
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C  (one plane = one channel of one sample)
  TILING_DATA_FIELD_DEF(uint32_t, channels);      // C, plane p uses offset[p % C]
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);     // D * H * W
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, planesRemainder);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // elements per pipeline step
  TILING_DATA_FIELD_DEF(uint32_t, erfTmpBytes);   // shared tmp buffer for AscendC::Erf
  TILING_DATA_FIELD_DEF(float, slope);
  TILING_DATA_FIELD_DEF(float, clipMin);
  TILING_DATA_FIELD_DEF(float, clipMax);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LeakyOffsetSaturateGeluCustom, LeakyOffsetSaturateGeluTiling)
}
