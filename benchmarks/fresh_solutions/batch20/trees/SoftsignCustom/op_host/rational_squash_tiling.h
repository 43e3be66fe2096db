#ifndef RATIONAL_SQUASH_TILING_H
#define RATIONAL_SQUASH_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RationalSquashTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);     // number of elements
  TILING_DATA_FIELD_DEF(uint64_t, perCoreNum);   // elements per core (32B aligned), last core takes the rest
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // elements per UB tile
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RationalSquash, RationalSquashTilingData)

ge::graphStatus RationalSquashTiling(gert::TilingContext *context);
}
#endif
