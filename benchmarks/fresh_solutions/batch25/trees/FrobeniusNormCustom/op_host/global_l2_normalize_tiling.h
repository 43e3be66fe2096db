#ifndef GLOBAL_L2_NORMALIZE_TILING_H
#define GLOBAL_L2_NORMALIZE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GlobalL2NormalizeTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLen);
  TILING_DATA_FIELD_DEF(uint64_t, perCore);      // elements per core (multiple of 32B worth), last core takes the rest
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
  TILING_DATA_FIELD_DEF(float, eps);             // guards an all-zero input
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GlobalL2Normalize, GlobalL2NormalizeTilingData)
}
#endif
