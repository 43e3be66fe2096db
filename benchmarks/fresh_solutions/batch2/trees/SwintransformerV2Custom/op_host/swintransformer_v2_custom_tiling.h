#include "register/tilingdata_base.h"

namespace optiling {
// Swin V2 "res-post-norm": y = residual + LayerNorm(x) over the last dim (C).
BEGIN_TILING_DATA_DEF(SwintransformerV2CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);         // B * L
  TILING_DATA_FIELD_DEF(uint32_t, cols);         // C
  TILING_DATA_FIELD_DEF(uint32_t, colsAlign);    // C rounded to 8
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invCols);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SwintransformerV2Custom, SwintransformerV2CustomTilingData)
}
