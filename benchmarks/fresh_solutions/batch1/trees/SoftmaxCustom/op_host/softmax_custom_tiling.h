#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftmaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);       // softmax axis length (last dim)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements per UB tile along the row
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // full tiles per row
  TILING_DATA_FIELD_DEF(uint32_t, tailLen);      // remainder (0 if rowLen % tileLen == 0)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SoftmaxCustom, SoftmaxCustomTilingData)
}
