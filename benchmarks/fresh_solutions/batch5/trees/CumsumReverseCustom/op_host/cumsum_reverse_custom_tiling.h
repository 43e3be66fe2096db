#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CumsumReverseCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // outer rows (product of dims before scan dim)
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);      // length of the scanned dim
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraRows);   // first extraRows cores take one more row
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);    // elements per UB chunk
  TILING_DATA_FIELD_DEF(uint32_t, chunkNum);
  TILING_DATA_FIELD_DEF(uint32_t, headLen);     // length of chunk 0 (may be shorter)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CumsumReverseCustom, CumsumReverseCustomTilingData)
}
