#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv3dSoftmaxMaxPoolMaxPoolCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, c);
  TILING_DATA_FIELD_DEF(uint32_t, d);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, od);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, pk);        // combined window of the two pools (k*k)
  TILING_DATA_FIELD_DEF(uint32_t, w_al);      // w rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, ow_al);
  TILING_DATA_FIELD_DEF(uint32_t, row_total); // n * od * oh
  TILING_DATA_FIELD_DEF(uint32_t, rows_per_core);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv3dSoftmaxMaxPoolMaxPoolCustom, Conv3dSoftmaxMaxPoolMaxPoolCustomTilingData)
}
