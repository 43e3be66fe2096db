// Tiling structure of DenseScaledLeaky (linear layer + scalar multiply + leaky ReLU).
#ifndef DENSE_SCALED_LEAKY_TILING_H
#define DENSE_SCALED_LEAKY_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseScaledLeakyTilingData)
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(float, negativeSlope);
  TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseScaledLeaky, DenseScaledLeakyTilingData)
}  // namespace optiling
#endif
