#ifndef PRE_LN_DECODER_LAYER_TILING_H
#define PRE_LN_DECODER_LAYER_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PreLnDecoderLayerTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, seqLen);
  TILING_DATA_FIELD_DEF(uint32_t, embed);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);     // MLP width (rows of fc weight)
  TILING_DATA_FIELD_DEF(uint32_t, numHeads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, headDimPad); // headDim rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, keyBlock);   // keys scored per vector pass
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, scale);         // 1/sqrt(headDim)
  TILING_DATA_FIELD_DEF(uint32_t, vecCores);   // AIV cores taking part in vector phases
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qkvMm);   // [M, C] x [3C, C]^T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, projMm);  // [M, C] x [C, C]^T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, fcMm);    // [M, C] x [H, C]^T
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, outMm);   // [M, H] x [C, H]^T
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PreLnDecoderLayer, PreLnDecoderLayerTilingData)
}
#endif
