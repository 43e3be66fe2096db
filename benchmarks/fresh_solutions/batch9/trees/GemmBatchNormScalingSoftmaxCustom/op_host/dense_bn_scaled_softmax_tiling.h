/*
 * DenseBnScaledSoftmax tiling data.
 * Phase 1 (cube):   y = x * W^T + b                     -> output buffer
 * Phase 2 (vector): per-feature batch statistics        -> coefficient workspace
 * Phase 3 (vector): y = softmax_row(y * coefA + coefB)  -> output buffer (in place)
 */
#ifndef DENSE_BN_SCALED_SOFTMAX_TILING_H
#define DENSE_BN_SCALED_SOFTMAX_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseBnScaledSoftmaxTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);         // M
  TILING_DATA_FIELD_DEF(uint32_t, inDim);         // K
  TILING_DATA_FIELD_DEF(uint32_t, outDim);        // N
  TILING_DATA_FIELD_DEF(uint32_t, outDimPad);     // N rounded up to 64
  TILING_DATA_FIELD_DEF(uint32_t, featPerCore);   // phase 2: features per vector core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, featTile);      // phase 2: features per UB pass
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // phase 3: rows per vector core
  TILING_DATA_FIELD_DEF(uint32_t, scaleLen);      // 1 (shared scale) or N (per-feature scale)
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseBnScaledSoftmax, DenseBnScaledSoftmaxTiling)

ge::graphStatus DenseBnScaledSoftmaxTilingFunc(gert::TilingContext *context);
} // namespace optiling
#endif
