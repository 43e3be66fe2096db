#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmSigmoidScalingResidualAddCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
  TILING_DATA_FIELD_DEF(float, scalingFactor);
  TILING_DATA_FIELD_DEF(uint32_t, epiTileLen);   // elements per epilogue chunk (multiple of 8)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmSigmoidScalingResidualAddCustom, GemmSigmoidScalingResidualAddCustomTilingData)
}
