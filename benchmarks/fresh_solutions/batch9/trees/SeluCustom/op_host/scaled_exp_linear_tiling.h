#ifndef SCALED_EXP_LINEAR_TILING_H
#define SCALED_EXP_LINEAR_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaledExpLinearTiling)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);     // element count of x
  TILING_DATA_FIELD_DEF(uint64_t, numPerCore);   // elements per core (multiple of 256 except on the last core)
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // elements per UB tile
  TILING_DATA_FIELD_DEF(float, alpha);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaledExpLinear, ScaledExpLinearTiling)

ge::graphStatus ScaledExpLinearTilingFunc(gert::TilingContext *context);
}
#endif
