#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulMinSubtractCustomTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
  TILING_DATA_FIELD_DEF(float, constant);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulMinSubtractCustom, MatmulMinSubtractCustomTilingData)
}
