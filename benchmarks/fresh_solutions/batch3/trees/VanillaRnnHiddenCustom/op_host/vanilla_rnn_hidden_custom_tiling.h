#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VanillaRnnHiddenCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, seq_len);
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, hid);       // hidden size (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, k_chunk);   // rows of W_hh^T per UB chunk
  TILING_DATA_FIELD_DEF(uint32_t, chunk_cnt); // ceil(hid / k_chunk)
  TILING_DATA_FIELD_DEF(uint32_t, blk_num);   // cores in use; batch rows are strided over them
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VanillaRnnHiddenCustom, VanillaRnnHiddenCustomTilingData)
}
