#ifndef LINEAR_GROUP_NORM_ROW_MIN_TILING_H
#define LINEAR_GROUP_NORM_ROW_MIN_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearGroupNormRowMinTiling)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // M: batch rows of x
  TILING_DATA_FIELD_DEF(uint32_t, features);      // N: output features of the dense layer
  TILING_DATA_FIELD_DEF(uint32_t, reduceDim);     // K: input features
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, groupSize);     // N / groups
  TILING_DATA_FIELD_DEF(uint32_t, featChunk);     // features processed per UB pass (multiple of groupSize)
  TILING_DATA_FIELD_DEF(uint32_t, rowChunk);      // rows of the min vector broadcast per pass
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearGroupNormRowMin, LinearGroupNormRowMinTiling)

ge::graphStatus LinearGroupNormRowMinTilingFunc(gert::TilingContext* context);
} // namespace optiling
#endif // LINEAR_GROUP_NORM_ROW_MIN_TILING_H
