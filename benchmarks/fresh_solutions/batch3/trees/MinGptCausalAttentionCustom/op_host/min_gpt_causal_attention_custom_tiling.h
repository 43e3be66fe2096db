#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MinGptCausalAttentionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, embd);
  TILING_DATA_FIELD_DEF(uint32_t, nHead);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
  TILING_DATA_FIELD_DEF(uint32_t, projRowsPerCore);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qkvTiling);    // x[b] @ W_h^T : T x hd x C
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, scoreTiling);  // Q @ K^T     : T x T x hd
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, pvTiling);     // P @ V       : T x hd x T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, projTiling);   // Y @ Wp^T    : rows x C x C
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MinGptCausalAttentionCustom, MinGptCausalAttentionCustomTilingData)
}
