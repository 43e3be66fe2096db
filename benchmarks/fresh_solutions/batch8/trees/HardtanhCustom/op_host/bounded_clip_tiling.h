#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BoundedClipTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalElems);
  TILING_DATA_FIELD_DEF(uint64_t, coreElems);   // elements per core (32B aligned), last core gets the rest
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);   // elements per pipeline stage
  TILING_DATA_FIELD_DEF(float, lower);
  TILING_DATA_FIELD_DEF(float, upper);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BoundedClipCustom, BoundedClipTilingData)
}
