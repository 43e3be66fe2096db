#ifndef LINEAR_GN_ROWMIN_BIAS_TILING_H
#define LINEAR_GN_ROWMIN_BIAS_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearGnRowminBiasTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // batch
  TILING_DATA_FIELD_DEF(uint32_t, features);      // output features of the linear layer
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, groupSize);
  TILING_DATA_FIELD_DEF(uint32_t, groupSizeAlign);
  TILING_DATA_FIELD_DEF(uint32_t, groupsPerLoad);  // groups brought into UB at once
  TILING_DATA_FIELD_DEF(uint32_t, mBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, nBlocks);
  TILING_DATA_FIELD_DEF(float, epsilon);
  TILING_DATA_FIELD_STRUCT(TCubeTiling, gemm);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LinearGnRowminBias, LinearGnRowminBiasTilingData)
}  // namespace optiling
#endif
