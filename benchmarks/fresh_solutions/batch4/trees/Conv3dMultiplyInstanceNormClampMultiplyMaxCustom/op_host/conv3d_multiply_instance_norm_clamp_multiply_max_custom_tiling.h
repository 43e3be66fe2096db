#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv3dMultiplyInstanceNormClampMultiplyMaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n_num);
  TILING_DATA_FIELD_DEF(uint32_t, c_num);
  TILING_DATA_FIELD_DEF(uint32_t, sp);        // D * H * W of the conv output
  TILING_DATA_FIELD_DEF(uint32_t, n_per);     // samples per core
  TILING_DATA_FIELD_DEF(uint32_t, tile_len);
  TILING_DATA_FIELD_DEF(uint32_t, tile_num);
  TILING_DATA_FIELD_DEF(uint32_t, tail_len);
  TILING_DATA_FIELD_DEF(float, lo);
  TILING_DATA_FIELD_DEF(float, hi);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv3dMultiplyInstanceNormClampMultiplyMaxCustom,
                           Conv3dMultiplyInstanceNormClampMultiplyMaxCustomTilingData)
}
