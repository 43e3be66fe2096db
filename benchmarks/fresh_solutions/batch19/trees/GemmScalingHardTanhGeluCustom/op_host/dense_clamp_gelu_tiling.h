#ifndef DENSE_CLAMP_GELU_TILING_H
#define DENSE_CLAMP_GELU_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseClampGeluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(float, alpha);      // multiplier applied after the bias
  TILING_DATA_FIELD_DEF(float, clipLow);
  TILING_DATA_FIELD_DEF(float, clipHigh);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseClampGelu, DenseClampGeluTilingData)
}
#endif
