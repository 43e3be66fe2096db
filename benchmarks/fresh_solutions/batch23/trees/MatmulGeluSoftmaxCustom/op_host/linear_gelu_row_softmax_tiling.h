#ifndef LINEAR_GELU_ROW_SOFTMAX_TILING_H
#define LINEAR_GELU_ROW_SOFTMAX_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearGeluRowSoftmaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // M: number of rows of x
  TILING_DATA_FIELD_DEF(uint32_t, inFeatures);    // K
  TILING_DATA_FIELD_DEF(uint32_t, outFeatures);   // N: softmax axis length
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // rows handled by one core (last core may get fewer)
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);      // column chunk processed at once by the vector stage
  TILING_DATA_FIELD_DEF(uint32_t, erfTmpBytes);   // scratch bytes for the Erf API
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearGeluRowSoftmax, LinearGeluRowSoftmaxTilingData)
}  // namespace optiling

#endif  // LINEAR_GELU_ROW_SOFTMAX_TILING_H
