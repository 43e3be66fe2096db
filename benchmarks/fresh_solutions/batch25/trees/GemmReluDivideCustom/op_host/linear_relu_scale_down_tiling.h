#ifndef LINEAR_RELU_SCALE_DOWN_TILING_H
#define LINEAR_RELU_SCALE_DOWN_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearReluScaleDownTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
  TILING_DATA_FIELD_DEF(float, invDivisor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearReluScaleDown, LinearReluScaleDownTilingData)
}
#endif
