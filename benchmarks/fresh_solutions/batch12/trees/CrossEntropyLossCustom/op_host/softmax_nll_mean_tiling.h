#ifndef SOFTMAX_NLL_MEAN_TILING_H
#define SOFTMAX_NLL_MEAN_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftmaxNllMeanTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // batch size
  TILING_DATA_FIELD_DEF(uint32_t, classes);       // number of classes (reduced axis)
  TILING_DATA_FIELD_DEF(uint32_t, colTile);       // class chunk resident in UB
  TILING_DATA_FIELD_DEF(uint32_t, colChunks);     // ceil(classes / colTile)
  TILING_DATA_FIELD_DEF(uint32_t, rowGroup);      // rows whose statistics are finalised together
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);      // first rowsTail cores get one more row
  TILING_DATA_FIELD_DEF(uint32_t, coreUsed);
  TILING_DATA_FIELD_DEF(int32_t, ignoreIndex);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SoftmaxNllMean, SoftmaxNllMeanTilingData)
}  // namespace optiling
#endif
