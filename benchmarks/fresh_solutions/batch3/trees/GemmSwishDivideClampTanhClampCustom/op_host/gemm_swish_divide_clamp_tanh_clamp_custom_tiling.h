#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmSwishDivideClampTanhClampCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, tanh_tmp);    // bytes of scratch for Tanh
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm_tiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmSwishDivideClampTanhClampCustom, GemmSwishDivideClampTanhClampCustomTilingData)
}
