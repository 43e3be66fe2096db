#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaxPooling2dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, alignInW);      // inW 向上对齐到 8
  TILING_DATA_FIELD_DEF(uint32_t, alignOutW);     // outW 向上对齐到 8
  TILING_DATA_FIELD_DEF(uint32_t, kernelSize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, padding);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // 每核输出行数（按 planes*outH 展平后切分）
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);      // 前 rowsTail 个核多一行
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaxPooling2dCustom, MaxPooling2dCustomTilingData)
}
