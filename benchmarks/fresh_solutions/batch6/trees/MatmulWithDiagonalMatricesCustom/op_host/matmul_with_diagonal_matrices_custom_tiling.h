// tiling data for MatmulWithDiagonalMatricesCustom
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulWithDiagonalMatricesCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, m);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulWithDiagonalMatricesCustom, MatmulWithDiagonalMatricesCustomTilingData)
}
