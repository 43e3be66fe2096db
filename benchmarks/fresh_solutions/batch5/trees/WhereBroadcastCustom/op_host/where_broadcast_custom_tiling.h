#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(WhereBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, innerLen);     // contiguous elements that share one cond value
  TILING_DATA_FIELD_DEF(uint32_t, condLen);      // number of cond elements (period along the rows)
  TILING_DATA_FIELD_DEF(uint32_t, condAlignLen); // condLen rounded up to 32 bytes
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);    // x.numel / innerLen
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // base rows of every core
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);    // the first formerNum cores take one extra row
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // rows moved per pipeline step
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(WhereBroadcastCustom, WhereBroadcastCustomTilingData)
}
