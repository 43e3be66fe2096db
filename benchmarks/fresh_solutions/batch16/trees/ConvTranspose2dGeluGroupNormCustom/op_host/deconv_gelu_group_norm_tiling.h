/**
 * Tiling data of DeconvGeluGroupNorm:
 *   y = GroupNorm(GELU(ConvTranspose2d(x, weight, bias)), gamma, beta)
 */
#ifndef DECONV_GELU_GROUP_NORM_TILING_H
#define DECONV_GELU_GROUP_NORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DeconvGeluGroupNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, woutAlign);
  TILING_DATA_FIELD_DEF(uint32_t, lead);          // zero margin before the input row (>= 1 block)
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);        // input row buffer length
  TILING_DATA_FIELD_DEF(uint32_t, tapStride);     // k*k rounded to 8 (weight layout in UB)
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, normChunk);     // elements per chunk of the normalisation pass
  TILING_DATA_FIELD_DEF(uint32_t, erfTmpBytes);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DeconvGeluGroupNorm, DeconvGeluGroupNormTilingData)
}  // namespace optiling
#endif
