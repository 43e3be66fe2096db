#ifndef SYMMETRIC_PRODUCT_MATMUL_TILING_H
#define SYMMETRIC_PRODUCT_MATMUL_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SymmetricProductMatmulTiling)
  TILING_DATA_FIELD_DEF(uint32_t, dim);          // N: both operands are N x N
  TILING_DATA_FIELD_DEF(uint32_t, bAsTransposed); // 1: B is streamed as B^T (legal because B == B^T)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SymmetricProductMatmul, SymmetricProductMatmulTiling)
}  // namespace optiling
#endif
