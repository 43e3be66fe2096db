#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose2dMaxPoolHardtanhMeanTanhCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, w_al);            // line length in UB, multiple of 16
  TILING_DATA_FIELD_DEF(uint32_t, pr_blk);          // row pairs per load
  TILING_DATA_FIELD_DEF(uint32_t, plane_total);     // n * c
  TILING_DATA_FIELD_DEF(uint32_t, planes_per_core);
  TILING_DATA_FIELD_DEF(float, ht_min);
  TILING_DATA_FIELD_DEF(float, ht_max);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose2dMaxPoolHardtanhMeanTanhCustom, ConvTranspose2dMaxPoolHardtanhMeanTanhCustomTilingData)
}
