#include "register/tilingdata_base.h"

namespace optiling {
// Tiling for the LayerNorm kernel used by every norm layer of Swin-MLP
// (patch_embed.norm, norm1/norm2 of each block, patch merging norm, final norm).
BEGIN_TILING_DATA_DEF(SwinMlpCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, numRows);
  TILING_DATA_FIELD_DEF(uint32_t, dim);
  TILING_DATA_FIELD_DEF(uint32_t, dimAlign);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileRows);
  TILING_DATA_FIELD_DEF(float, epsilon);
  TILING_DATA_FIELD_DEF(float, invDim);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SwinMlpCustom, SwinMlpCustomTilingData)
}
