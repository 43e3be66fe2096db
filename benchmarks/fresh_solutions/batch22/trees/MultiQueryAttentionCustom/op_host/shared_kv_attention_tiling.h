#ifndef SHARED_KV_ATTENTION_TILING_H
#define SHARED_KV_ATTENTION_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SharedKvAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, modelDim);
  TILING_DATA_FIELD_DEF(uint32_t, numHeads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, workers);        // vector cores taking part
  TILING_DATA_FIELD_DEF(uint32_t, projRows);       // token rows per worker for the linear layers
  TILING_DATA_FIELD_DEF(uint32_t, qBlockRows);     // (token, head) rows per attention block
  TILING_DATA_FIELD_DEF(uint32_t, blocksPerBatch);
  TILING_DATA_FIELD_DEF(uint32_t, softmaxChunk);   // columns of a score row processed at once
  TILING_DATA_FIELD_DEF(float, scale);             // 1/sqrt(headDim)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, projTiling);   // [rows, D] x [D, D]^T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, kvTiling);     // [rows, D] x [dh, D]^T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, scoreTiling);  // [R, dh] x [N, dh]^T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, pvTiling);     // [R, N] x [N, dh]
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SharedKvAttention, SharedKvAttentionTilingData)
}  // namespace optiling
#endif
