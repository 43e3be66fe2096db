#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SubtractWithBiasBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // product of all leading dims of x
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // bias length == last dim of x
  TILING_DATA_FIELD_DEF(uint32_t, colsPerCore);   // column slice owned by one core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, lastCoreCols);  // slice of the final core (may be shorter)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // rows moved per DMA burst group
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SubtractWithBiasBroadcastCustom, SubtractWithBiasBroadcastCustomTilingData)
}
