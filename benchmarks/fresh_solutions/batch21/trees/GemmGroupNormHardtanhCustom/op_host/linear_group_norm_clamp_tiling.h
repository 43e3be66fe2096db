#ifndef LINEAR_GROUP_NORM_CLAMP_TILING_H
#define LINEAR_GROUP_NORM_CLAMP_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearGroupNormClampTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // M
  TILING_DATA_FIELD_DEF(uint32_t, features);     // N
  TILING_DATA_FIELD_DEF(uint32_t, numGroups);
  TILING_DATA_FIELD_DEF(uint32_t, groupLen);     // N / numGroups
  TILING_DATA_FIELD_DEF(uint32_t, groupLenAlign);
  TILING_DATA_FIELD_DEF(uint32_t, segTotal);     // M * numGroups normalisation segments
  TILING_DATA_FIELD_DEF(uint32_t, segPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, segExtra);
  TILING_DATA_FIELD_DEF(uint32_t, vecCores);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, clipLow);
  TILING_DATA_FIELD_DEF(float, clipHigh);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearGroupNormClamp, LinearGroupNormClampTilingData)

ge::graphStatus LinearGroupNormClampTiling(gert::TilingContext *context);
}  // namespace optiling
#endif  // LINEAR_GROUP_NORM_CLAMP_TILING_H
