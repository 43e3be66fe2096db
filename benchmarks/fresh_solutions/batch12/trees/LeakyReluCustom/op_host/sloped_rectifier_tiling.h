#ifndef SLOPED_RECTIFIER_TILING_H
#define SLOPED_RECTIFIER_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SlopedRectifierTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);     // number of elements
  TILING_DATA_FIELD_DEF(uint64_t, perCoreNum);   // elements for cores [0, bigCoreCnt) minus one tile unit
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreCnt);   // cores that receive one extra alignment unit
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // elements per UB tile
  TILING_DATA_FIELD_DEF(float, slope);           // multiplier used for x < 0
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SlopedRectifier, SlopedRectifierTilingData)
}  // namespace optiling
#endif
