#ifndef ROW_SCATTER_OVERWRITE_CUSTOM_TILING_H
#define ROW_SCATTER_OVERWRITE_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// out = self; out[index[j], :] = source[j, :]
// Each core owns a contiguous band of output rows: it copies its band of
// `self`, then scans the whole index list and writes the source rows that land
// in its band. No cross-core synchronisation is needed and, for repeated
// indices, the last occurrence wins deterministically.
BEGIN_TILING_DATA_DEF(RowScatterOverwriteTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);         // rows of self / out
  TILING_DATA_FIELD_DEF(uint32_t, cols);         // elements per row
  TILING_DATA_FIELD_DEF(uint32_t, indexNum);     // length of index
  TILING_DATA_FIELD_DEF(uint32_t, bandRows);     // rows per core (leading cores get +1)
  TILING_DATA_FIELD_DEF(uint32_t, bigBands);     // number of cores with bandRows + 1
  TILING_DATA_FIELD_DEF(uint32_t, copyTile);     // elements per UB chunk for copies
  TILING_DATA_FIELD_DEF(uint32_t, indexTile);    // indices fetched into UB at once
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowScatterOverwriteCustom, RowScatterOverwriteTilingData)
}
#endif
