#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TanhCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, total_len);  // number of elements (can exceed 2^31)
  TILING_DATA_FIELD_DEF(uint64_t, blk_len);    // elements per core (multiple of 8), last core takes the rest
  TILING_DATA_FIELD_DEF(uint32_t, tile_len);   // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, tmp_bytes);  // scratch for the Tanh high-level API
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TanhCustom, TanhCustomTilingData)
}
