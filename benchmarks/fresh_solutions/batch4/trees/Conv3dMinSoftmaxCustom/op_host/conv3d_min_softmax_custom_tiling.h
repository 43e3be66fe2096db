// tiling data for depth-min + channel-softmax
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv3dMinSoftmaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, c);
  TILING_DATA_FIELD_DEF(uint32_t, d);
  TILING_DATA_FIELD_DEF(uint32_t, hw);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerImg);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv3dMinSoftmaxCustom, Conv3dMinSoftmaxCustomTilingData)
}
