#ifndef TRANSPOSED_CONV2D_NCHW_TILING_H
#define TRANSPOSED_CONV2D_NCHW_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// One work unit = one output row (n, oh) for a block of output channels that
// lives inside a single group.
BEGIN_TILING_DATA_DEF(TransposedConv2dNchwTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, strideH);
  TILING_DATA_FIELD_DEF(uint32_t, strideW);
  TILING_DATA_FIELD_DEF(uint32_t, padH);
  TILING_DATA_FIELD_DEF(uint32_t, padW);
  TILING_DATA_FIELD_DEF(uint32_t, dilH);
  TILING_DATA_FIELD_DEF(uint32_t, dilW);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  TILING_DATA_FIELD_DEF(uint32_t, phaseLen);     // Wq: length of one stride phase (8-aligned)
  TILING_DATA_FIELD_DEF(uint32_t, shiftPad);     // zero prefix in the padded input row (8-aligned)
  TILING_DATA_FIELD_DEF(uint32_t, ocBlock);      // output channels per work unit
  TILING_DATA_FIELD_DEF(uint32_t, ocBlocksPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, unitsTotal);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TransposedConv2dNchw, TransposedConv2dNchwTilingData)
}  // namespace optiling
#endif  // TRANSPOSED_CONV2D_NCHW_TILING_H
