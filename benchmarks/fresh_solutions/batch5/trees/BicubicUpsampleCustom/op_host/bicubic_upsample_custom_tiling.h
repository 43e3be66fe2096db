#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BicubicUpsampleCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);     // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, tileRows);   // output rows per store
  TILING_DATA_FIELD_DEF(float, scaleH);        // (inH - 1) / (outH - 1), align_corners=True
  TILING_DATA_FIELD_DEF(float, scaleW);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BicubicUpsampleCustom, BicubicUpsampleCustomTilingData)
}
