#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DivisionBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);  // x 元素总数
  TILING_DATA_FIELD_DEF(uint32_t, channel);      // scale 有效元素数（被广播的那段维度之积）
  TILING_DATA_FIELD_DEF(uint32_t, inner);        // scale 之后被广播的维度之积
  TILING_DATA_FIELD_DEF(uint64_t, perCore);      // 每核处理元素数（8 对齐）
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DivisionBroadcastCustom, DivisionBroadcastCustomTilingData)
}
