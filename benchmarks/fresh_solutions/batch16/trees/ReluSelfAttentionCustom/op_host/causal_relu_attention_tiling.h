#ifndef CAUSAL_RELU_ATTENTION_TILING_H
#define CAUSAL_RELU_ATTENTION_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CausalReluAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);       // B
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);      // T
  TILING_DATA_FIELD_DEF(uint32_t, embed);       // C
  TILING_DATA_FIELD_DEF(uint32_t, numHeads);    // nh
  TILING_DATA_FIELD_DEF(uint32_t, headDim);     // C / nh
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
  TILING_DATA_FIELD_DEF(uint32_t, rowChunk);    // score elements handled per UB pass
  TILING_DATA_FIELD_DEF(float, scale);          // 1 / sqrt(headDim)
  TILING_DATA_FIELD_DEF(uint64_t, qkvOffset);   // byte offsets into user workspace
  TILING_DATA_FIELD_DEF(uint64_t, scoreOffset);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, projTiling);   // [B*T, C] x [3C, C]^T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, scoreTiling);  // [T, hs] x [T, hs]^T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, ctxTiling);    // [T, T] x [T, hs]
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CausalReluAttention, CausalReluAttentionTilingData)
} // namespace optiling

#endif
