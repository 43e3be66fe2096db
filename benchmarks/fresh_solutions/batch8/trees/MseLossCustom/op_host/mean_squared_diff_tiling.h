#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MeanSquaredDiffTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, numel);        // elements in pred / target
  TILING_DATA_FIELD_DEF(uint64_t, chunk);        // elements per core (multiple of 8), last core gets the rest
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements per UB pass
  TILING_DATA_FIELD_DEF(float, invNumel);        // 1 / numel
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MeanSquaredDiffCustom, MeanSquaredDiffTilingData)
}
