// TensorMatProduct tiling: contraction of the last axis of a tensor with a matrix.
#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TensorMatProductTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rowsTotal);   // product of all leading axes of x
  TILING_DATA_FIELD_DEF(uint32_t, mBlocks);     // blocks along M in the multi-core split
  TILING_DATA_FIELD_DEF(uint32_t, nBlocks);     // blocks along N in the multi-core split
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TensorMatProduct, TensorMatProductTilingData)
}  // namespace optiling
