#ifndef DENSE_MAX_CENTER_GELU_TILING_H
#define DENSE_MAX_CENTER_GELU_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseMaxCenterGeluTiling)
  TILING_DATA_FIELD_DEF(uint32_t, m);            // rows of x
  TILING_DATA_FIELD_DEF(uint32_t, n);            // out features
  TILING_DATA_FIELD_DEF(uint32_t, k);            // in features
  TILING_DATA_FIELD_DEF(uint32_t, reduceDim);    // 0: max over rows, 1: max over features
  TILING_DATA_FIELD_DEF(uint32_t, vecCores);     // AIV blocks taking part in the epilogue
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // epilogue split when reduceDim == 1
  TILING_DATA_FIELD_DEF(uint32_t, colsPerCore);  // epilogue split when reduceDim == 0 (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, chunk);        // elements per UB chunk in the epilogue
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseMaxCenterGelu, DenseMaxCenterGeluTiling)
}  // namespace optiling
#endif
