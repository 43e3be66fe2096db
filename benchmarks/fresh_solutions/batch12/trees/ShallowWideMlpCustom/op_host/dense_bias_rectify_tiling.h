#ifndef DENSE_BIAS_RECTIFY_TILING_H
#define DENSE_BIAS_RECTIFY_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseBiasRectifyTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, applyRelu);   // 1: clamp the affine output at zero
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm); // cube-unit split (single-core / base blocks)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseBiasRectify, DenseBiasRectifyTilingData)
}  // namespace optiling
#endif
