#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SumReductionOverADimensionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);      // dims before the reduced one
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);
  TILING_DATA_FIELD_DEF(uint32_t, inner);      // dims after (contiguous)
  TILING_DATA_FIELD_DEF(uint32_t, colTile);    // inner elements per task
  TILING_DATA_FIELD_DEF(uint32_t, colTiles);   // ceil(inner / colTile)
  TILING_DATA_FIELD_DEF(uint32_t, rowTile);    // reduced rows per copy
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);    // outer * colTiles
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SumReductionOverADimensionCustom, SumReductionOverADimensionCustomTilingData)
}
