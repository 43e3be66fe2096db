#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(IndexAddCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, numRows);       // x.size(0)
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);        // product of trailing dims of x
  TILING_DATA_FIELD_DEF(uint32_t, numIndices);    // indices.size(0) == values.size(0)
  TILING_DATA_FIELD_DEF(uint32_t, colsPerCore);   // column slice owned by one core
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerBatch);  // rows moved per DataCopy burst
  TILING_DATA_FIELD_DEF(uint32_t, idxChunk);      // indices staged in UB at once
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IndexAddCustom, IndexAddCustomTilingData)
}
