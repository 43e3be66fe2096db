#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MinReductionOverADimensionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);       // product of dims before `dim`
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);   // size of `dim`
  TILING_DATA_FIELD_DEF(uint32_t, inner);       // product of dims after `dim`
  TILING_DATA_FIELD_DEF(uint32_t, innerTile);   // columns per task (inner > 1 path)
  TILING_DATA_FIELD_DEF(uint32_t, rowTile);     // reduce rows loaded per DataCopy
  TILING_DATA_FIELD_DEF(uint32_t, innerTiles);  // ceil(inner / innerTile)
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, workSize);    // ReduceMin work buffer (elements), last-axis path
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MinReductionOverADimensionCustom, MinReductionOverADimensionCustomTilingData)
}
