#ifndef SQUARED_ERROR_MEAN_TILING_H
#define SQUARED_ERROR_MEAN_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SquaredErrorMeanTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);     // number of elements in each input
  TILING_DATA_FIELD_DEF(uint64_t, perCoreNum);   // elements handled by a full core
  TILING_DATA_FIELD_DEF(uint64_t, lastCoreNum);  // elements handled by the last core
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements per UB tile (32B aligned)
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF(float, invTotal);        // 1 / totalNum, computed on host
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SquaredErrorMean, SquaredErrorMeanTilingData)
}  // namespace optiling
#endif
