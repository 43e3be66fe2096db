#ifndef ROW_BIAS_SUBTRACT_TILING_H
#define ROW_BIAS_SUBTRACT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowBiasSubtractTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // product of all leading dims of x
  TILING_DATA_FIELD_DEF(uint32_t, cols);        // last dim of x == length of bias
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore); // rows handled by cores [0, tailCoreStart)
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);  // first bigCoreNum cores get one extra row
  TILING_DATA_FIELD_DEF(uint32_t, colTile);     // columns moved per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowBiasSubtract, RowBiasSubtractTilingData)
}
#endif
