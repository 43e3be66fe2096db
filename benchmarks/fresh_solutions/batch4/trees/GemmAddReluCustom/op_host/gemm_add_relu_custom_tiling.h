#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmAddReluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, blk_num);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmAddReluCustom, GemmAddReluCustomTilingData)
}
