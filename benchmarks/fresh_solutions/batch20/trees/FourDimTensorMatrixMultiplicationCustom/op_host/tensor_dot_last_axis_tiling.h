#ifndef TENSOR_DOT_LAST_AXIS_TILING_H
#define TENSOR_DOT_LAST_AXIS_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TensorDotLastAxisTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);       // product of all leading axes of A (GEMM M)
  TILING_DATA_FIELD_DEF(uint32_t, contract);   // last axis of A == first axis of B (GEMM K)
  TILING_DATA_FIELD_DEF(uint32_t, cols);       // last axis of B (GEMM N)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TensorDotLastAxis, TensorDotLastAxisTilingData)
}
#endif
