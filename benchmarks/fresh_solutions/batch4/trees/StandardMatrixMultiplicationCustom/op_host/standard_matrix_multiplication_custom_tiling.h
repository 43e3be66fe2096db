#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(StandardMatrixMultiplicationCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m_blks);   // number of core tiles along M
  TILING_DATA_FIELD_DEF(uint32_t, n_blks);   // number of core tiles along N
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(StandardMatrixMultiplicationCustom, StandardMatrixMultiplicationCustomTilingData)
}
