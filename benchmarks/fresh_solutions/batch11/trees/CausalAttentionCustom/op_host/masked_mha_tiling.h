#ifndef MASKED_MHA_TILING_H
#define MASKED_MHA_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaskedMhaTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, modelDim);
  TILING_DATA_FIELD_DEF(uint32_t, heads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, headDimAlign);
  TILING_DATA_FIELD_DEF(uint32_t, seqAlign);
  TILING_DATA_FIELD_DEF(float, softmaxScale);
  TILING_DATA_FIELD_DEF(uint32_t, aivNum);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, inProj);   // [B*S, E] x [3E, E]^T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, outProj);  // [B*S, E] x [E, E]^T
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaskedMha, MaskedMhaTilingData)
}
#endif
