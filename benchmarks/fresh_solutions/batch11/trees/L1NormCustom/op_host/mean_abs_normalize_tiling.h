#ifndef MEAN_ABS_NORMALIZE_TILING_H
#define MEAN_ABS_NORMALIZE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MeanAbsNormalizeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);       // prod(shape[:1])
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);   // shape[1]
  TILING_DATA_FIELD_DEF(uint32_t, inner);       // prod(shape[2:]), 1 for 2-D input
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);     // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, innerChunks); // ceil(inner / tileLen), strided mode only
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);  // work units distributed over cores
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MeanAbsNormalize, MeanAbsNormalizeTilingData)
}
#endif
