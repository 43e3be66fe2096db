#ifndef AXIS_MIN_TILING_H
#define AXIS_MIN_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// The input is viewed as [outer, reduce, inner]; the output is [outer, inner].
BEGIN_TILING_DATA_DEF(AxisMinTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, outer);
  TILING_DATA_FIELD_DEF(uint64_t, reduceLen);
  TILING_DATA_FIELD_DEF(uint64_t, inner);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);        // inner elements per unit (column mode)
  TILING_DATA_FIELD_DEF(uint32_t, colTilesPerRow); // ceil(inner / colTile)
  TILING_DATA_FIELD_DEF(uint32_t, rowChunk);       // reduce elements per load (last-axis mode)
  TILING_DATA_FIELD_DEF(uint64_t, totalUnits);
  TILING_DATA_FIELD_DEF(uint64_t, unitsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AxisMin, AxisMinTilingData)
}  // namespace optiling
#endif
