/**
 * Tiling data for RowVectorSub: y[r, c] = x[r, c] - bias[c]
 */
#ifndef ROW_VECTOR_SUB_TILING_H
#define ROW_VECTOR_SUB_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowVectorSubTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // product of all leading dims of x
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // length of the last dim == bias length
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // rows handled by every core except the tail ones
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // first bigCoreNum cores get one extra row
  TILING_DATA_FIELD_DEF(uint32_t, colTile);       // columns processed per UB pass (32B aligned)
  TILING_DATA_FIELD_DEF(uint32_t, rowTile);       // rows processed per UB pass
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowVectorSub, RowVectorSubTilingData)
}  // namespace optiling

#endif  // ROW_VECTOR_SUB_TILING_H
