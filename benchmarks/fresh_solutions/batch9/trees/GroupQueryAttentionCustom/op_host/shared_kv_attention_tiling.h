#ifndef SHARED_KV_ATTENTION_TILING_H
#define SHARED_KV_ATTENTION_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SharedKvAttentionTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, model);       // D
  TILING_DATA_FIELD_DEF(uint32_t, qHeads);
  TILING_DATA_FIELD_DEF(uint32_t, kvHeads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, kvModel);     // kvHeads * headDim
  TILING_DATA_FIELD_DEF(float, softmaxScale);
  TILING_DATA_FIELD_DEF(uint32_t, aivNum);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmQ);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmKV);  // used for K and for V (same shape)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmOut);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SharedKvAttention, SharedKvAttentionTiling)
}
#endif
