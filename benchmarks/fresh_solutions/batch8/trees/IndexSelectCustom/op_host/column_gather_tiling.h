#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ColumnGatherTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);        // product of dims before the gathered axis
  TILING_DATA_FIELD_DEF(uint32_t, srcCols);      // size of the gathered axis (x is viewed as [outer, srcCols])
  TILING_DATA_FIELD_DEF(uint32_t, numIdx);       // number of indices = output columns
  TILING_DATA_FIELD_DEF(uint32_t, idxChunk);     // indices handled per pass
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsLeft);     // first rowsLeft cores get one extra row
  TILING_DATA_FIELD_DEF(uint32_t, rowInUb);      // 1: whole source row fits in UB -> vector Gather, 0: scalar path
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ColumnGatherCustom, ColumnGatherTilingData)
}
