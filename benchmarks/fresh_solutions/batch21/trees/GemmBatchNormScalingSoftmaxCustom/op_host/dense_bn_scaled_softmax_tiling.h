#ifndef DENSE_BN_SCALED_SOFTMAX_TILING_H
#define DENSE_BN_SCALED_SOFTMAX_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseBnScaledSoftmaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // M (batch)
  TILING_DATA_FIELD_DEF(uint32_t, cols);        // N (out features)
  TILING_DATA_FIELD_DEF(uint32_t, depth);       // K (in features)
  TILING_DATA_FIELD_DEF(uint32_t, vecCores);    // AIV cores taking part in the vector stages
  TILING_DATA_FIELD_DEF(uint32_t, statCols);    // columns per core in the statistics stage
  TILING_DATA_FIELD_DEF(uint32_t, statRowTile); // rows loaded at once in the statistics stage
  TILING_DATA_FIELD_DEF(uint32_t, softRows);    // rows per core in the softmax stage
  TILING_DATA_FIELD_DEF(uint32_t, colTile);     // chunk width in the softmax stage
  TILING_DATA_FIELD_DEF(uint32_t, scaleLen);    // 1 (scalar scale) or N (per-column scale)
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseBnScaledSoftmax, DenseBnScaledSoftmaxTilingData)

ge::graphStatus DenseBnScaledSoftmaxTilingFunc(gert::TilingContext *context);
} // namespace optiling
#endif
