#ifndef SLIDING_WINDOW_ATTENTION_TILING_H
#define SLIDING_WINDOW_ATTENTION_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SlidingWindowAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, embed);        // E = heads * headDim
  TILING_DATA_FIELD_DEF(uint32_t, heads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, window);       // query i sees keys [i - window, i + window)
  TILING_DATA_FIELD_DEF(uint32_t, queryBlock);   // queries sharing one K/V band load
  TILING_DATA_FIELD_DEF(uint32_t, bandRows);     // max key rows in a band = queryBlock + 2*window - 1
  TILING_DATA_FIELD_DEF(uint32_t, keysPerQuery); // 2 * window (upper bound)
  TILING_DATA_FIELD_DEF(uint32_t, blocksPerSeq);
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);      // batch * heads * blocksPerSeq
  TILING_DATA_FIELD_DEF(float, scale);           // 1 / sqrt(headDim)
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SlidingWindowAttention, SlidingWindowAttentionTilingData)

ge::graphStatus SlidingWindowAttentionTilingFunc(gert::TilingContext* context);
}
#endif
