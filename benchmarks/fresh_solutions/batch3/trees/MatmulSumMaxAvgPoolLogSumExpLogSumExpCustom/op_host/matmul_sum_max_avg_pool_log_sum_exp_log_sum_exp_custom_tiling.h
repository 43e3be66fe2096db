#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulSumMaxAvgPoolLogSumExpLogSumExpCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, M);
  TILING_DATA_FIELD_DEF(uint32_t, K);
  TILING_DATA_FIELD_DEF(uint32_t, N);
  TILING_DATA_FIELD_DEF(uint32_t, colChunk);     // phase 1: W columns per core
  TILING_DATA_FIELD_DEF(uint32_t, rowBatch);     // phase 1: W rows per DMA
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // phase 2: x rows per core
  TILING_DATA_FIELD_DEF(uint32_t, kTile);        // phase 2: K elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulSumMaxAvgPoolLogSumExpLogSumExpCustom, MatmulSumMaxAvgPoolLogSumExpLogSumExpCustomTilingData)
}
