// tiling data for HuberLossCustom
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HuberLossCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, total);
  TILING_DATA_FIELD_DEF(uint64_t, perCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(float, beta);
  TILING_DATA_FIELD_DEF(float, invTotal);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HuberLossCustom, HuberLossCustomTilingData)
}
