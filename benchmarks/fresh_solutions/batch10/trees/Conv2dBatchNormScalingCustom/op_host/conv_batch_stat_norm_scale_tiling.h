#ifndef CONV_BATCH_STAT_NORM_SCALE_TILING_H
#define CONV_BATCH_STAT_NORM_SCALE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvBatchStatNormScaleTilingData)
  // geometry
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, owAlign);
  // partition: output channels per core, channels per UB block
  TILING_DATA_FIELD_DEF(uint32_t, chPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, chTail);
  TILING_DATA_FIELD_DEF(uint32_t, chBlock);
  TILING_DATA_FIELD_DEF(uint32_t, normChunk);    // elements per step of the normalize pass
  // epilogue
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvBatchStatNormScale, ConvBatchStatNormScaleTilingData)
}  // namespace optiling
#endif
