#ifndef LINEAR_RECTIFIED_SCALE_TILING_H
#define LINEAR_RECTIFIED_SCALE_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearRectifiedScaleTiling)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);  // cube matmul split (x @ weight^T + bias)
  TILING_DATA_FIELD_DEF(float, invDivisor);             // epilogue multiplier 1 / divisor
  TILING_DATA_FIELD_DEF(uint32_t, usedBlocks);          // vector blocks that own an output tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearRectifiedScale, LinearRectifiedScaleTiling)
}  // namespace optiling
#endif
