// tiling data for IndexCopyCustom
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(IndexCopyCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, nIdx);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, chunk);
  TILING_DATA_FIELD_DEF(uint32_t, idxBlk);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IndexCopyCustom, IndexCopyCustomTilingData)
}
