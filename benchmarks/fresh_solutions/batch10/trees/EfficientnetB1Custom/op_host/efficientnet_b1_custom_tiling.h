#include "register/tilingdata_base.h"

namespace optiling {
// Tiling for the fused "folded BatchNorm + clip" stage used all over EfficientNet-B1.
// The activation tensor is viewed as [rows = N*C, rowLen = H*W]; every row shares
// one (scale, shift) pair taken from its channel.
BEGIN_TILING_DATA_DEF(EfficientnetB1CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // N * C
  TILING_DATA_FIELD_DEF(uint32_t, channels);      // C
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);        // H * W
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // rows handled by cores [0, bigCores)
  TILING_DATA_FIELD_DEF(uint32_t, bigCores);      // number of cores that take one extra row
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // elements per UB tile (multiple of 8)
  TILING_DATA_FIELD_DEF(float, clipMin);
  TILING_DATA_FIELD_DEF(float, clipMax);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(EfficientnetB1Custom, EfficientnetB1CustomTilingData)
}
