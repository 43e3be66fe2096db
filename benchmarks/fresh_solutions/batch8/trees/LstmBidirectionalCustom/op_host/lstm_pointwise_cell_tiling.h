#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LstmPointwiseCellTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);         // batch
  TILING_DATA_FIELD_DEF(uint32_t, hidden);       // H
  TILING_DATA_FIELD_DEF(uint32_t, hiddenAlign);  // H rounded up to 8 floats (one 32B block)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LstmPointwiseCellCustom, LstmPointwiseCellTilingData)
}
