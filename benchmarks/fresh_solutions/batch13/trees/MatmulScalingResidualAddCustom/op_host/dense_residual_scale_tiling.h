#ifndef DENSE_RESIDUAL_SCALE_TILING_H
#define DENSE_RESIDUAL_SCALE_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseResidualScaleTilingData)
  TILING_DATA_FIELD_DEF(float, outScale);   // 1 + scaling_factor : y*s + y
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseResidualScale, DenseResidualScaleTilingData)
} // namespace optiling
#endif
