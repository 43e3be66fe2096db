#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, row_num);     // N * C rows to reduce
  TILING_DATA_FIELD_DEF(uint32_t, row_len);     // H_out * W_out elements per row
  TILING_DATA_FIELD_DEF(uint32_t, tile_len);    // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, tile_cnt);    // full tiles per row
  TILING_DATA_FIELD_DEF(uint32_t, tail_len);    // leftover elements per row (0 if none)
  TILING_DATA_FIELD_DEF(uint32_t, rows_per_blk);
  TILING_DATA_FIELD_DEF(uint32_t, rows_rem);    // first rows_rem cores get one extra row
  TILING_DATA_FIELD_DEF(float, scale);          // multiplier / (H_out * W_out)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustom,
                           ConvTranspose2dMultiplyGlobalAvgPoolGlobalAvgPoolMeanCustomTilingData)
}
