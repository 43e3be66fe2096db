#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulDropoutMeanSoftmaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);
  TILING_DATA_FIELD_DEF(uint32_t, cols);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);
  TILING_DATA_FIELD_DEF(uint32_t, chunkNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulDropoutMeanSoftmaxCustom, MatmulDropoutMeanSoftmaxCustomTilingData)
}
