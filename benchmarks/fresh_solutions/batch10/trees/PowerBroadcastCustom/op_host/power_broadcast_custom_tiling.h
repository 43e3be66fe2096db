#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PowerBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);       // product of the leading (broadcast) dims of x
  TILING_DATA_FIELD_DEF(uint32_t, cols);       // length of exponent == last dim of x
  TILING_DATA_FIELD_DEF(uint32_t, colsPerCore); // column slice owned by one core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tileCols);    // columns per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PowerBroadcastCustom, PowerBroadcastCustomTilingData)
}
