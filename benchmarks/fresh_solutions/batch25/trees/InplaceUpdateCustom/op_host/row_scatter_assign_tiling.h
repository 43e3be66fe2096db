#ifndef ROW_SCATTER_ASSIGN_TILING_H
#define ROW_SCATTER_ASSIGN_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowScatterAssignTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, numRows);      // first dim of var
  TILING_DATA_FIELD_DEF(uint64_t, rowLen);       // product of remaining dims
  TILING_DATA_FIELD_DEF(uint64_t, numIndices);
  TILING_DATA_FIELD_DEF(uint64_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, copyTile);     // elements per UB transfer
  TILING_DATA_FIELD_DEF(uint32_t, idxTile);      // indices loaded per UB chunk
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowScatterAssign, RowScatterAssignTilingData)
}
#endif
