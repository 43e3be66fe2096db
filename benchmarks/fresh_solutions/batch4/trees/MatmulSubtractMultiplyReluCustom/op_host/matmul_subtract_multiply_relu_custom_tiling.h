// tiling data: cube tiling plus epilogue constants
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulSubtractMultiplyReluCustomTilingData)
  TILING_DATA_FIELD_DEF(float, subVal);
  TILING_DATA_FIELD_DEF(float, mulVal);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulSubtractMultiplyReluCustom, MatmulSubtractMultiplyReluCustomTilingData)
}
