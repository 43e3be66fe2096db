#ifndef SMOOTH_L1_MEAN_TILING_H
#define SMOOTH_L1_MEAN_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SmoothL1MeanTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalCount);   // number of elements in predictions
  TILING_DATA_FIELD_DEF(uint64_t, perCore);      // elements handled by a regular core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint64_t, lastCore);     // elements handled by the last core
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, reduceWorkLen);// scratch elements needed by ReduceSum over tileLen
  TILING_DATA_FIELD_DEF(float, beta);            // smooth-L1 transition point
  TILING_DATA_FIELD_DEF(float, invCount);        // 1 / totalCount, applied per core before the atomic add
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SmoothL1MeanCustom, SmoothL1MeanTilingData)
}
#endif
