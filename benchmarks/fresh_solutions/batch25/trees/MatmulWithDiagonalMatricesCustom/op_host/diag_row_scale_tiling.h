#ifndef DIAG_ROW_SCALE_TILING_H
#define DIAG_ROW_SCALE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DiagRowScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // N, length of the diagonal
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // M, columns of the dense matrix
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraRows);     // first extraRows cores get one more row
  TILING_DATA_FIELD_DEF(uint32_t, colTile);       // elements per UB tile along a row
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // whole rows packed into one tile when the row is short
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DiagRowScale, DiagRowScaleTilingData)
}
#endif
