#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SquareMatrixMultiplicationCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
  TILING_DATA_FIELD_DEF(uint32_t, n_dim);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SquareMatrixMultiplicationCustom, SquareMatrixMultiplicationCustomTilingData)
}
