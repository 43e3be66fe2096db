#ifndef MEMORY_ATTENTION_TILING_H
#define MEMORY_ATTENTION_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MemoryAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, queryLen);
  TILING_DATA_FIELD_DEF(uint32_t, memLen);
  TILING_DATA_FIELD_DEF(uint32_t, embed);
  TILING_DATA_FIELD_DEF(uint32_t, heads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(uint32_t, vecWorkers);   // AIV cores that take part
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qProj);   // [B*Lq, E] x Wq^T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, kvProj);  // [B*Lkv, E] x Wkv^T  (N = 2E)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, outProj); // [B*Lq, E] x Wo^T
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MemoryAttention, MemoryAttentionTilingData)
}
#endif
