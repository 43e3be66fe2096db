#ifndef SCALE_BY_CONSTANT_TILING_H
#define SCALE_BY_CONSTANT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleByConstantTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);     // elements in x
  TILING_DATA_FIELD_DEF(uint64_t, perCoreNum);   // elements per core (multiple of one 32B block)
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // elements per UB tile
  TILING_DATA_FIELD_DEF(float, factor);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ScaleByConstant, ScaleByConstantTilingData)

ge::graphStatus ScaleByConstantTilingFunc(gert::TilingContext *context);
}
#endif
