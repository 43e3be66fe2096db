#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BmmInstanceNormSumResidualAddMultiplyCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inFeatures);
  TILING_DATA_FIELD_DEF(uint32_t, outFeatures);
  TILING_DATA_FIELD_DEF(uint32_t, blockRows);
  TILING_DATA_FIELD_DEF(uint32_t, coreUsed);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BmmInstanceNormSumResidualAddMultiplyCustom, BmmInstanceNormSumResidualAddMultiplyCustomTilingData)
}
