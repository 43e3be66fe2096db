#ifndef LEAKY_RECTIFIER_TILING_H
#define LEAKY_RECTIFIER_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LeakyRectifierTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);     // element count
  TILING_DATA_FIELD_DEF(uint64_t, bigCoreNum);   // element count of a "big" core
  TILING_DATA_FIELD_DEF(uint64_t, smallCoreNum); // element count of a "small" core
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreCount); // first bigCoreCount cores get bigCoreNum
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // elements per UB tile
  TILING_DATA_FIELD_DEF(float, slope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LeakyRectifier, LeakyRectifierTilingData)
}  // namespace optiling
#endif
