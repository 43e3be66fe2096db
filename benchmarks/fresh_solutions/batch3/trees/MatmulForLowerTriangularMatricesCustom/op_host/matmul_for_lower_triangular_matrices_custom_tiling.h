#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulForLowerTriangularMatricesCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);          // matrix order
  TILING_DATA_FIELD_DEF(uint32_t, bs);         // output block edge
  TILING_DATA_FIELD_DEF(uint32_t, nb);         // ceil(n / bs)
  TILING_DATA_FIELD_DEF(uint32_t, blk_num);    // cube cores in use
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm_tiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulForLowerTriangularMatricesCustom, MatmulForLowerTriangularMatricesCustomTilingData)
}
