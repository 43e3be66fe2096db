#ifndef CONSTANT_SCALE_TILING_H
#define CONSTANT_SCALE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConstantScaleTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);     // element count of x
  TILING_DATA_FIELD_DEF(uint64_t, perCore);      // elements for each core but the last (block aligned)
  TILING_DATA_FIELD_DEF(uint64_t, lastCore);     // elements for the last core
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // elements per UB tile
  TILING_DATA_FIELD_DEF(float, factor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConstantScale, ConstantScaleTilingData)
}  // namespace optiling
#endif
