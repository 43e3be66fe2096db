#ifndef SLIDING_WINDOW_SELF_ATTENTION_TILING_H
#define SLIDING_WINDOW_SELF_ATTENTION_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SlidingWindowSelfAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, modelDim);
  TILING_DATA_FIELD_DEF(uint32_t, numHeads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, window);       // number of *previous* tokens visible
  TILING_DATA_FIELD_DEF(uint32_t, queryBlock);   // queries handled per attention work unit
  TILING_DATA_FIELD_DEF(uint32_t, blocksPerSeq); // ceil(seqLen / queryBlock)
  TILING_DATA_FIELD_DEF(uint32_t, unitCount);    // batch * heads * blocksPerSeq
  TILING_DATA_FIELD_DEF(uint32_t, vecCoreNum);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, projTiling); // shared by the four linear layers
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SlidingWindowSelfAttention, SlidingWindowSelfAttentionTilingData)

ge::graphStatus SlidingWindowSelfAttentionTilingFunc(gert::TilingContext *context);
} // namespace optiling
#endif
