#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv3dMaxLogSumExpReluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, c);
  TILING_DATA_FIELD_DEF(uint32_t, d);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, od);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, w_al);          // input line length in UB (16-float aligned)
  TILING_DATA_FIELD_DEF(uint32_t, ch_blk);        // channels loaded per chunk
  TILING_DATA_FIELD_DEF(uint32_t, task_total);    // n * od * oh output rows
  TILING_DATA_FIELD_DEF(uint32_t, task_per_core);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv3dMaxLogSumExpReluCustom, Conv3dMaxLogSumExpReluCustomTilingData)
}
