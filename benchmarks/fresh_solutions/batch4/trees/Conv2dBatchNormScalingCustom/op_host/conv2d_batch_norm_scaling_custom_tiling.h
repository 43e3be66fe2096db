#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dBatchNormScalingCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n_num);
  TILING_DATA_FIELD_DEF(uint32_t, c_num);
  TILING_DATA_FIELD_DEF(uint32_t, hw);         // elements in one (n, c) plane
  TILING_DATA_FIELD_DEF(uint32_t, c_per);      // channels per core
  TILING_DATA_FIELD_DEF(uint32_t, tile_len);   // elements per tile
  TILING_DATA_FIELD_DEF(uint32_t, tile_num);   // tiles per plane (incl. tail)
  TILING_DATA_FIELD_DEF(uint32_t, tail_len);   // elements in the last tile of a plane
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dBatchNormScalingCustom, Conv2dBatchNormScalingCustomTilingData)
}
