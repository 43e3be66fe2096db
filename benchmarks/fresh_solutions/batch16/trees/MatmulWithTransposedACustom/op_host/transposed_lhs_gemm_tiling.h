/**
 * Tiling data for TransposedLhsGemm: C[M, N] = A[K, M]^T * B[K, N]
 */
#ifndef TRANSPOSED_LHS_GEMM_TILING_H
#define TRANSPOSED_LHS_GEMM_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TransposedLhsGemmTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TransposedLhsGemm, TransposedLhsGemmTilingData)
} // namespace optiling

#endif // TRANSPOSED_LHS_GEMM_TILING_H
