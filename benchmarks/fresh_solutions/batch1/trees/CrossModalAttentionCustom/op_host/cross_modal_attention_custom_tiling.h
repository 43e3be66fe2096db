#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CrossModalAttentionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batchHeads);   // B * num_heads
  TILING_DATA_FIELD_DEF(uint32_t, lenQ);         // text tokens
  TILING_DATA_FIELD_DEF(uint32_t, lenK);         // image tokens
  TILING_DATA_FIELD_DEF(uint32_t, lenKAlign);    // lenK padded to 8
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, headsPerCore);
  TILING_DATA_FIELD_DEF(float, scale);           // 1 / sqrt(headDim)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CrossModalAttentionCustom, CrossModalAttentionCustomTilingData)
}
