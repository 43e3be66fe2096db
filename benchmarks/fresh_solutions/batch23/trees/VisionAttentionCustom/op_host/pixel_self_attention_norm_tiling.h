#ifndef PIXEL_SELF_ATTENTION_NORM_TILING_H
#define PIXEL_SELF_ATTENTION_NORM_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PixelSelfAttentionNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, embed);        // C
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);       // L = H * W
  TILING_DATA_FIELD_DEF(uint32_t, heads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, projRowsPerCore);  // stage 1 token rows per core and batch
  TILING_DATA_FIELD_DEF(uint32_t, qBlock);           // stage 2 query rows per work item
  TILING_DATA_FIELD_DEF(uint32_t, qBlocks);          // ceil(L / qBlock)
  TILING_DATA_FIELD_DEF(uint32_t, softmaxChunk);
  TILING_DATA_FIELD_DEF(uint32_t, tokBlock);         // stage 3 tokens per work item
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, projTiling);  // [L,C]x[C,3C]
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, scoreTiling); // [qB,hd]x[hd,L]
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, ctxTiling);   // [qB,L]x[L,hd]
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, outTiling);   // [C,C]x[C,tB]
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PixelSelfAttentionNorm, PixelSelfAttentionNormTilingData)
}  // namespace optiling
#endif
