#ifndef LINEAR_SCALED_BATCH_NORM_TILING_H
#define LINEAR_SCALED_BATCH_NORM_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearScaledBatchNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // M: batch rows
  TILING_DATA_FIELD_DEF(uint32_t, inFeatures);    // K
  TILING_DATA_FIELD_DEF(uint32_t, outFeatures);   // N
  TILING_DATA_FIELD_DEF(uint32_t, vecCoreNum);    // vector cores taking part in the norm phase
  TILING_DATA_FIELD_DEF(uint32_t, colsPerCore);   // columns owned by one vector core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, colChunk);      // columns processed together in UB
  TILING_DATA_FIELD_DEF(uint32_t, rowChunk);      // rows processed together in UB
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearScaledBatchNorm, LinearScaledBatchNormTilingData)
}  // namespace optiling
#endif
