#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dMishMishCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint64_t, formerLength);   // elements for each of the first `formerNum` cores
  TILING_DATA_FIELD_DEF(uint64_t, tailLength);     // elements for the remaining cores
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);     // elements per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dMishMishCustom, Conv2dMishMishCustomTilingData)
}
