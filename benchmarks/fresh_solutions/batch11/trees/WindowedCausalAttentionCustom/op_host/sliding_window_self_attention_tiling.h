/**
 * Tiling data for SlidingWindowSelfAttention.
 *
 * The op runs in three phases inside one kernel launch:
 *   1. Q/K/V projections (cube, Matmul API)         -> workspace
 *   2. banded causal softmax(QK^T)V per head (vector) -> workspace
 *   3. output projection (cube, Matmul API)          -> y
 */
#ifndef SLIDING_WINDOW_SELF_ATTENTION_TILING_H
#define SLIDING_WINDOW_SELF_ATTENTION_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SlidingWindowSelfAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);       // D = heads * headDim
  TILING_DATA_FIELD_DEF(uint32_t, numHeads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, window);       // number of previous tokens visible
  TILING_DATA_FIELD_DEF(uint32_t, kvChunkRows);  // K/V rows staged in UB at a time
  TILING_DATA_FIELD_DEF(uint32_t, scoreLenAlign);// window + 1 rounded up to 8
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // (b, n, h) query rows handled by one vector core
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
  TILING_DATA_FIELD_DEF(uint32_t, mmCoreNum);
  TILING_DATA_FIELD_DEF(float, scale);           // 1 / sqrt(headDim)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, projTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SlidingWindowSelfAttention, SlidingWindowSelfAttentionTilingData)

ge::graphStatus SlidingWindowSelfAttentionTilingFunc(gert::TilingContext *context);
} // namespace optiling

#endif // SLIDING_WINDOW_SELF_ATTENTION_TILING_H
