#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CumprodCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);      // product of dims before `dim`
  TILING_DATA_FIELD_DEF(uint32_t, scan_len);   // size of `dim`
  TILING_DATA_FIELD_DEF(uint32_t, inner);      // product of dims after `dim`
  // key 0 (inner == 1): rows grouped in blocks of grp_rows, columns in tiles of col_tile
  TILING_DATA_FIELD_DEF(uint32_t, grp_rows);
  TILING_DATA_FIELD_DEF(uint32_t, col_tile);
  TILING_DATA_FIELD_DEF(uint32_t, grp_num);
  // key 1 (inner > 1): inner is cut into slices of in_tile elements
  TILING_DATA_FIELD_DEF(uint32_t, in_tile);
  TILING_DATA_FIELD_DEF(uint32_t, slice_num);
  // work units (groups or (outer, slice) pairs) per core
  TILING_DATA_FIELD_DEF(uint32_t, unit_per_blk);
  TILING_DATA_FIELD_DEF(uint32_t, unit_rem);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CumprodCustom, CumprodCustomTilingData)
}
