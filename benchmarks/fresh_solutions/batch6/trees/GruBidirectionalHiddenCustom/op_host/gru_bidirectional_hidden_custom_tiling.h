#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GruBidirectionalHiddenCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, t_len);
  TILING_DATA_FIELD_DEF(uint32_t, bsz);
  TILING_DATA_FIELD_DEF(uint32_t, hid);
  TILING_DATA_FIELD_DEF(uint32_t, b_per_core);  // batch rows per core
  TILING_DATA_FIELD_DEF(uint32_t, k_blk);       // W_hh^T rows per streamed chunk
  TILING_DATA_FIELD_DEF(uint32_t, reverse);     // 1: walk the sequence backwards
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GruBidirectionalHiddenCustom, GruBidirectionalHiddenCustomTilingData)
}
