#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
// LayerNorm over the channel axis, the op every Swin-MLP stage leans on
// (norm1 / norm2 per block, patch-merging norm, patch-embed norm, final norm).
BEGIN_TILING_DATA_DEF(SwinMlpCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize);
  TILING_DATA_FIELD_DEF(float, epsilon);
  TILING_DATA_FIELD_DEF_STRUCT(LayerNormTiling, lnTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SwinMlpCustom, SwinMlpCustomTilingData)
}
