#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dAddHardSwishCustomTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalLength);
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);      // 多分一个对齐块的核数（大核）
  TILING_DATA_FIELD_DEF(uint64_t, formerLength);   // 大核处理元素数
  TILING_DATA_FIELD_DEF(uint64_t, tailLength);     // 小核处理元素数
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dAddHardSwishCustom, ConvTranspose3dAddHardSwishCustomTilingData)
}
