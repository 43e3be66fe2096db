#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ClampBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);       // product of all but the last dim
  TILING_DATA_FIELD_DEF(uint32_t, cols);       // last dim == length of min/max vectors
  TILING_DATA_FIELD_DEF(uint32_t, col_tile);   // columns per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, rows_ld);    // rows per DMA
  TILING_DATA_FIELD_DEF(uint32_t, rows_per_blk);
  TILING_DATA_FIELD_DEF(uint32_t, rows_rem);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ClampBroadcastCustom, ClampBroadcastCustomTilingData)
}
