#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmMaxSubtractGeluCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);            // GEMM 输出行数 (batch)
  TILING_DATA_FIELD_DEF(uint32_t, n);            // GEMM 输出列数 (out_features)
  TILING_DATA_FIELD_DEF(uint32_t, maxDim);       // 0 或 1
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // maxDim=1：行内切块长度
  TILING_DATA_FIELD_DEF(uint32_t, rowChunk);     // maxDim=1：一次攒多少行的最大值再做后处理
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // maxDim=1：按行分核
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);
  TILING_DATA_FIELD_DEF(uint32_t, colsPerCore);  // maxDim=0：按列分核（8 对齐）
  TILING_DATA_FIELD_DEF(uint32_t, colTile);      // maxDim=0：列方向切块
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoad);  // maxDim=0：一次搬入的行数
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmMaxSubtractGeluCustom, GemmMaxSubtractGeluCustomTilingData)
}
