#include "register/tilingdata_base.h"

namespace optiling {
// Tiling for the max-pool (3x3, stride 1, pad 1) stage of the inception pool branch.
BEGIN_TILING_DATA_DEF(GooglenetInceptionModuleCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, widthAlign);
  TILING_DATA_FIELD_DEF(uint64_t, totalRows);    // N * C * H output rows
  TILING_DATA_FIELD_DEF(uint64_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint64_t, rowsRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GooglenetInceptionModuleCustom, GooglenetInceptionModuleCustomTilingData)
}
