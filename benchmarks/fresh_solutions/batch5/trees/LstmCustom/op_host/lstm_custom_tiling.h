#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LstmCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // rows of the state
  TILING_DATA_FIELD_DEF(uint32_t, hidden);       // H; gates are 4H wide
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);     // first rowsTail cores take one extra row
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LstmCustom, LstmCustomTilingData)
}
