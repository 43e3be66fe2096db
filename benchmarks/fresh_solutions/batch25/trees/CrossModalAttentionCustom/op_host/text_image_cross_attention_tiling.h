#ifndef TEXT_IMAGE_CROSS_ATTENTION_TILING_H
#define TEXT_IMAGE_CROSS_ATTENTION_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TextImageCrossAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, lenQ);        // text tokens
  TILING_DATA_FIELD_DEF(uint32_t, lenKv);       // image tokens
  TILING_DATA_FIELD_DEF(uint32_t, dModel);      // text width, also attention width
  TILING_DATA_FIELD_DEF(uint32_t, dImg);        // image feature width
  TILING_DATA_FIELD_DEF(uint32_t, heads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, rowSlab);     // rows per core for the dense layers
  TILING_DATA_FIELD_DEF(uint32_t, kvPad);       // lenKv rounded up to 16 (score row pitch)
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, linear);  // generic x * W^T + b, max shape
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, score);   // Q_h * K_h^T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mix);     // P * V_h
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TextImageCrossAttention, TextImageCrossAttentionTilingData)
}
#endif
