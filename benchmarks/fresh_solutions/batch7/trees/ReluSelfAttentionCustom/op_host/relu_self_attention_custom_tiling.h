#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReluSelfAttentionCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qkTiling);   // S = Q_blk (bm x hs) * K^T (hs x T)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, pvTiling);   // O = P (bm x T) * V (T x hs)
  TILING_DATA_FIELD_DEF(uint32_t, batchHeads);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, blockM);       // query rows per task
  TILING_DATA_FIELD_DEF(uint32_t, qBlocks);      // ceil(T / blockM)
  TILING_DATA_FIELD_DEF(uint32_t, vecRows);      // score rows per vector pass
  TILING_DATA_FIELD_DEF(uint32_t, scoreStride);  // row stride of the score scratch (== T)
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReluSelfAttentionCustom, ReluSelfAttentionCustomTilingData)
}
