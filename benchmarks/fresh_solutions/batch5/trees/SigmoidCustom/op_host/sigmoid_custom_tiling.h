#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SigmoidCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);   // 元素总数（本用例约 1.6e9，用 64 位）
  TILING_DATA_FIELD_DEF(uint64_t, perCoreLength); // 每核处理长度（32B 对齐）
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);    // 单次搬运长度
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SigmoidCustom, SigmoidCustomTilingData)
}
