#ifndef SHIFTED_PREFIX_SUM_TILING_H
#define SHIFTED_PREFIX_SUM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ShiftedPrefixSumTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outerSize);    // product of dims before the scan axis
  TILING_DATA_FIELD_DEF(uint32_t, scanLen);      // size of the scan axis
  TILING_DATA_FIELD_DEF(uint32_t, innerSize);    // product of dims after the scan axis
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);     // elements moved per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, innerTiles);   // ceil(innerSize / chunkLen) (vector mode)
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore); // work units handled by one core
  TILING_DATA_FIELD_DEF(uint32_t, unitsTail);    // first unitsTail cores take one extra unit
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ShiftedPrefixSum, ShiftedPrefixSumTilingData)
}
#endif
