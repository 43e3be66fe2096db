#ifndef GEMM_BOTH_TRANSPOSED_TILING_H
#define GEMM_BOTH_TRANSPOSED_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmBothTransposedTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, mBlocks);   // number of singleCoreM slabs along M
  TILING_DATA_FIELD_DEF(uint32_t, nBlocks);   // number of singleCoreN slabs along N
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmBothTransposed, GemmBothTransposedTilingData)
} // namespace optiling
#endif
