#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(UpsampleGridSampleCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, upH);          // 2 * inH, also the grid_sample output size
  TILING_DATA_FIELD_DEF(uint32_t, upW);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraPlanes);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // output rows per store
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(UpsampleGridSampleCustom, UpsampleGridSampleCustomTilingData)
}
