#ifndef STRIDED_UPCONV2D_TILING_H
#define STRIDED_UPCONV2D_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
// StridedUpconv2d: transposed 2-D convolution with an independent (KH, KW) window,
// per-axis stride and per-axis padding.
BEGIN_TILING_DATA_DEF(StridedUpconv2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, ci);
  TILING_DATA_FIELD_DEF(uint32_t, hi);
  TILING_DATA_FIELD_DEF(uint32_t, wi);
  TILING_DATA_FIELD_DEF(uint32_t, co);
  TILING_DATA_FIELD_DEF(uint32_t, ho);
  TILING_DATA_FIELD_DEF(uint32_t, wo);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, sh);
  TILING_DATA_FIELD_DEF(uint32_t, sw);
  TILING_DATA_FIELD_DEF(uint32_t, ph);
  TILING_DATA_FIELD_DEF(uint32_t, pw);
  TILING_DATA_FIELD_DEF(uint32_t, ciPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, coPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, laneLen);      // aligned fp32 length of one stride phase
  TILING_DATA_FIELD_DEF(uint32_t, woAlign);
  TILING_DATA_FIELD_DEF(uint32_t, withBias);
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // cores that take formerRows rows
  TILING_DATA_FIELD_DEF(uint32_t, formerRows);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);     // rows of the remaining cores
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(StridedUpconv2d, StridedUpconv2dTilingData)

ge::graphStatus StridedUpconv2dTilingFunc(gert::TilingContext *context);
} // namespace optiling
#endif
