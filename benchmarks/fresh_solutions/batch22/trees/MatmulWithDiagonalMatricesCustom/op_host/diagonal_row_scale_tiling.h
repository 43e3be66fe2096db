#ifndef DIAGONAL_ROW_SCALE_TILING_H
#define DIAGONAL_ROW_SCALE_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DiagonalRowScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // N: length of the diagonal / rows of the matrix
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // M
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // rows for the first `headCores` cores
  TILING_DATA_FIELD_DEF(uint32_t, headCores);     // remaining cores get rowsPerCore - 1
  TILING_DATA_FIELD_DEF(uint32_t, colTile);       // columns per UB tile (block aligned)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // whole rows packed in one tile when cols is small
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(DiagonalRowScale, DiagonalRowScaleTilingData)

ge::graphStatus DiagonalRowScaleTiling(gert::TilingContext *context);
}
#endif
