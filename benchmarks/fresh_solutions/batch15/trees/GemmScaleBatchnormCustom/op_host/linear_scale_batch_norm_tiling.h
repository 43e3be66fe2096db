#ifndef LINEAR_SCALE_BATCH_NORM_TILING_H
#define LINEAR_SCALE_BATCH_NORM_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearScaleBatchNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);         // M, batch
  TILING_DATA_FIELD_DEF(uint32_t, cols);         // N, features
  TILING_DATA_FIELD_DEF(uint32_t, depth);        // K
  TILING_DATA_FIELD_DEF(uint32_t, colBlock);     // features per core (all rows)
  TILING_DATA_FIELD_DEF(uint32_t, rowChunk);     // rows per UB load in the epilogue
  TILING_DATA_FIELD_DEF(float, epsilon);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LinearScaleBatchNorm, LinearScaleBatchNormTilingData)

ge::graphStatus LinearScaleBatchNormTilingFunc(gert::TilingContext *context);
}
#endif
