#ifndef DENSE_GEMM_ANY_SHAPE_CUSTOM_TILING_H
#define DENSE_GEMM_ANY_SHAPE_CUSTOM_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
// C[M, N] = A[M, K] @ B[K, N], fp32, arbitrary (non-aligned) M, N, K.
// The multi-core matmul tiling decides the per-core block (singleCoreM x
// singleCoreN); the kernel derives its block coordinates and the edge tails.
BEGIN_TILING_DATA_DEF(DenseGemmAnyShapeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, mBlocks);   // ceil(M / singleCoreM)
  TILING_DATA_FIELD_DEF(uint32_t, nBlocks);   // ceil(N / singleCoreN)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseGemmAnyShapeCustom, DenseGemmAnyShapeTilingData)
}
#endif
