#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulBatchNormBiasAddDivideSwishCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m_num);     // batch rows
  TILING_DATA_FIELD_DEF(uint32_t, n_num);     // features (columns)
  TILING_DATA_FIELD_DEF(uint32_t, col_per);   // columns owned by one core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, row_tile);  // rows per UB tile
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, inv_div);      // 1 / divide_value
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulBatchNormBiasAddDivideSwishCustom, MatmulBatchNormBiasAddDivideSwishCustomTilingData)
}
