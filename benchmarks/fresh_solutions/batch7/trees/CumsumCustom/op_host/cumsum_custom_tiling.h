#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CumsumCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);        // dims before the scan axis
  TILING_DATA_FIELD_DEF(uint32_t, scanLen);      // length of the scan axis
  TILING_DATA_FIELD_DEF(uint32_t, inner);        // dims after the scan axis
  TILING_DATA_FIELD_DEF(uint32_t, tileRows);     // CumSumInfo.outter of one tile
  TILING_DATA_FIELD_DEF(uint32_t, tileCols);     // CumSumInfo.inner of one tile (32B aligned)
  TILING_DATA_FIELD_DEF(uint32_t, colTiles);     // inner > 1 path: ceil(inner / tileCols)
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tmpBufSize);   // bytes for CumSum shared tmp buffer
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CumsumCustom, CumsumCustomTilingData)
}
