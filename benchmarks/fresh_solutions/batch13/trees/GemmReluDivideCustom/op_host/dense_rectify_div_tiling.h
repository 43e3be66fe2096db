/*
 * DenseRectifyDiv tiling: cube tiling for x(M,K) * weight(N,K)^T + bias, plus the
 * reciprocal of the divisor used by the vector epilogue.
 */
#ifndef DENSE_RECTIFY_DIV_TILING_H
#define DENSE_RECTIFY_DIV_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseRectifyDivTilingData)
  TILING_DATA_FIELD_DEF(float, invDivisor);
  TILING_DATA_FIELD_DEF(uint32_t, outTileBytes);   // baseM * baseN * sizeof(out)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseRectifyDiv, DenseRectifyDivTilingData)

ge::graphStatus DenseRectifyDivTilingFunc(gert::TilingContext *context);
}
#endif
