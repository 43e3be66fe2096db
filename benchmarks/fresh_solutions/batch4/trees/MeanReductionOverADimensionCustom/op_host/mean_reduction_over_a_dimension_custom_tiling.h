// tiling data for mean over one axis, viewed as [outer, rlen, inner]
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MeanReductionOverADimensionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);
  TILING_DATA_FIELD_DEF(uint32_t, rlen);
  TILING_DATA_FIELD_DEF(uint32_t, inner);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, rowBatch);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerOuter);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF(uint32_t, mode);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MeanReductionOverADimensionCustom, MeanReductionOverADimensionCustomTilingData)
}
