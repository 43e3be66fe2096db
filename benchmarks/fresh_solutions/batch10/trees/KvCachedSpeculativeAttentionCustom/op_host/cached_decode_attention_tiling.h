#ifndef CACHED_DECODE_ATTENTION_TILING_H
#define CACHED_DECODE_ATTENTION_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CachedDecodeAttentionTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, qLen);        // number of query positions per batch
  TILING_DATA_FIELD_DEF(uint32_t, kvLen);       // cached key/value positions
  TILING_DATA_FIELD_DEF(uint32_t, headDim);     // D of q/k
  TILING_DATA_FIELD_DEF(uint32_t, valueDim);    // D of v / output
  TILING_DATA_FIELD_DEF(uint32_t, kvSplit);     // kv axis is split into this many chunks (flash-decoding)
  TILING_DATA_FIELD_DEF(uint32_t, kvPerSplit);  // kv positions per chunk
  TILING_DATA_FIELD_DEF(uint32_t, kvTile);      // kv positions scored per inner step
  TILING_DATA_FIELD_DEF(uint32_t, partStride);  // floats per partial record in workspace (valueDim padded + 8 for m/l)
  TILING_DATA_FIELD_DEF(float, scale);          // softmax scale, normally 1/sqrt(headDim)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CachedDecodeAttention, CachedDecodeAttentionTiling)
}  // namespace optiling
#endif
