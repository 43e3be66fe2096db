#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CumsumCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // product of all leading dims
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // length of the scanned (last) dim
  TILING_DATA_FIELD_DEF(uint32_t, groupRows);     // rows scanned side by side in one UB tile
  TILING_DATA_FIELD_DEF(uint32_t, tileCols);      // columns per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, groupCount);
  TILING_DATA_FIELD_DEF(uint32_t, groupsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, groupsRemain);
  TILING_DATA_FIELD_DEF(uint32_t, colTiles);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CumsumCustom, CumsumCustomTilingData)
}
