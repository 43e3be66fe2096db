#ifndef CATEGORICAL_LOG_LOSS_TILING_H
#define CATEGORICAL_LOG_LOSS_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CategoricalLogLossTilingData)
  TILING_DATA_FIELD_DEF(int64_t, ignoreIndex);     // (kept first for 8-byte alignment) label value that is excluded from the loss
  TILING_DATA_FIELD_DEF(uint32_t, batchRows);      // N: number of samples
  TILING_DATA_FIELD_DEF(uint32_t, classNum);       // C: number of classes (row length)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);    // rows owned by each core (the last core may own fewer)
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);      // cores that really take part
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);       // class elements processed per UB chunk (32B aligned)
  TILING_DATA_FIELD_DEF(uint32_t, chunkNum);       // ceil(C / chunkLen)
  TILING_DATA_FIELD_DEF(uint32_t, lnBatch);        // how many row sums are gathered before one vector Ln
  TILING_DATA_FIELD_DEF(uint32_t, reduceMode);     // 0: sum, 1: mean over valid samples
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CategoricalLogLoss, CategoricalLogLossTilingData)
}  // namespace optiling
#endif  // CATEGORICAL_LOG_LOSS_TILING_H
