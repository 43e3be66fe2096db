// tiling data for fused residual-add + layernorm
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VisionTransformerCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, tileRows);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VisionTransformerCustom, VisionTransformerCustomTilingData)
}
