#ifndef SHARED_KV_HEAD_ATTENTION_TILING_H
#define SHARED_KV_HEAD_ATTENTION_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SharedKvHeadAttentionTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, model);      // D
  TILING_DATA_FIELD_DEF(uint32_t, kvModel);    // D * Hkv / H
  TILING_DATA_FIELD_DEF(uint32_t, heads);
  TILING_DATA_FIELD_DEF(uint32_t, kvHeads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, seqPad);     // seqLen rounded up to 8
  TILING_DATA_FIELD_DEF(uint32_t, slabElems);  // streamed weight slab size (floats)
  TILING_DATA_FIELD_DEF(float, softmaxScale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SharedKvHeadAttention, SharedKvHeadAttentionTiling)

ge::graphStatus SharedKvHeadAttentionTilingFunc(gert::TilingContext *ctx);
} // namespace optiling
#endif
