#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(IndexSelectCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);       // dim 之前各维乘积
  TILING_DATA_FIELD_DEF(uint32_t, dimSize);     // x 在 dim 上的长度
  TILING_DATA_FIELD_DEF(uint32_t, inner);       // dim 之后各维乘积
  TILING_DATA_FIELD_DEF(uint32_t, indexLen);    // index 元素个数
  TILING_DATA_FIELD_DEF(uint32_t, mode);        // 0: 整行搬入 UB 后 Gather；1: 按 inner 切片直接搬运
  TILING_DATA_FIELD_DEF(uint32_t, indexTile);   // mode 0 下单次处理的 index 个数
  TILING_DATA_FIELD_DEF(uint32_t, copyTile);    // mode 1 下单次搬运的元素个数
  TILING_DATA_FIELD_DEF(uint32_t, taskPerCore); // mode 0: 行数；mode 1: (outer*indexLen) 切片数
  TILING_DATA_FIELD_DEF(uint32_t, taskTail);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IndexSelectCustom, IndexSelectCustomTilingData)
}
