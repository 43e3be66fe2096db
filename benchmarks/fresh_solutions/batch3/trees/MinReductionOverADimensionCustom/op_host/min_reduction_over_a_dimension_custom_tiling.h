#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MinReductionOverADimensionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);
  TILING_DATA_FIELD_DEF(uint32_t, red);        // length of the reduced axis
  TILING_DATA_FIELD_DEF(uint32_t, inner);
  TILING_DATA_FIELD_DEF(uint32_t, in_tile);    // key 0: inner elements per slice; key 1: tile along red
  TILING_DATA_FIELD_DEF(uint32_t, slice_num);  // key 0: ceil(inner / in_tile)
  TILING_DATA_FIELD_DEF(uint32_t, rows_ld);    // key 0: reduced rows fetched per DMA
  TILING_DATA_FIELD_DEF(uint32_t, unit_per_blk);
  TILING_DATA_FIELD_DEF(uint32_t, unit_rem);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MinReductionOverADimensionCustom, MinReductionOverADimensionCustomTilingData)
}
