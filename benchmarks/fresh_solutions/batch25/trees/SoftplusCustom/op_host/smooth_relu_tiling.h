#ifndef SMOOTH_RELU_TILING_H
#define SMOOTH_RELU_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SmoothReluTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);     // number of elements in x
  TILING_DATA_FIELD_DEF(uint64_t, bigCoreNum);   // cores that take one extra block
  TILING_DATA_FIELD_DEF(uint64_t, blocksPerCore);// 32B-block count of a regular core
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, alignNum);     // elements per 32B block
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SmoothRelu, SmoothReluTilingData)
}
#endif
