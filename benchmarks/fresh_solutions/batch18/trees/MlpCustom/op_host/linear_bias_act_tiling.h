/**
 * Tiling data for LinearBiasAct: y = act(x * W^T + b)
 */
#ifndef LINEAR_BIAS_ACT_TILING_H
#define LINEAR_BIAS_ACT_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearBiasActTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // M: number of input rows (batch)
  TILING_DATA_FIELD_DEF(uint32_t, inFeatures);  // K
  TILING_DATA_FIELD_DEF(uint32_t, outFeatures); // N
  TILING_DATA_FIELD_DEF(uint32_t, actType);     // 0: identity, 1: relu
  TILING_DATA_FIELD_DEF(uint32_t, actChunk);    // elements handled per vector pass in the epilogue
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearBiasAct, LinearBiasActTilingData)

ge::graphStatus LinearBiasActTilingFunc(gert::TilingContext *context);
} // namespace optiling

#endif // LINEAR_BIAS_ACT_TILING_H
