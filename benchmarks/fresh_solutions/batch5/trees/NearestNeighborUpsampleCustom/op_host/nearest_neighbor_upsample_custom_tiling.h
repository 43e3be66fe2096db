#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(NearestNeighborUpsampleCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);       // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(float, invScaleH);       // 1 / scale_h，源坐标 = floor(dst * invScale)
  TILING_DATA_FIELD_DEF(float, invScaleW);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // 输出行（planes*outH 展平）按核切分
  TILING_DATA_FIELD_DEF(uint32_t, rowsRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(NearestNeighborUpsampleCustom, NearestNeighborUpsampleCustomTilingData)
}
