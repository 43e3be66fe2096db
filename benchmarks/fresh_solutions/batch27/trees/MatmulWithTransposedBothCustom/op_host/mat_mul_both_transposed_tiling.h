/**
 * @file mat_mul_both_transposed_tiling.h
 * @brief Tiling data for MatMulBothTransposed: c[M, N] = a[K, M]^T x b[N, K]^T.
 */
#ifndef MAT_MUL_BOTH_TRANSPOSED_TILING_H
#define MAT_MUL_BOTH_TRANSPOSED_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatMulBothTransposedTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatMulBothTransposed, MatMulBothTransposedTilingData)

ge::graphStatus MatMulBothTransposedTilingFunc(gert::TilingContext* context);
} // namespace optiling

#endif // MAT_MUL_BOTH_TRANSPOSED_TILING_H
