#ifndef SYMMETRIC_PAIR_MATMUL_CUSTOM_TILING_H
#define SYMMETRIC_PAIR_MATMUL_CUSTOM_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
// out = lhs @ rhs with rhs symmetric (rhs == rhs^T). The kernel reads rhs as
// if it were stored transposed ([N, K] row-major), so every output column
// block consumes a contiguous band of rhs rows instead of a strided column
// band. The output is cut into fixed tiles that the cube cores pick up
// round-robin.
BEGIN_TILING_DATA_DEF(SymmetricPairMatmulTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, dimM);
  TILING_DATA_FIELD_DEF(uint32_t, dimN);
  TILING_DATA_FIELD_DEF(uint32_t, dimK);
  TILING_DATA_FIELD_DEF(uint32_t, tileM);
  TILING_DATA_FIELD_DEF(uint32_t, tileN);
  TILING_DATA_FIELD_DEF(uint32_t, tilesAlongM);
  TILING_DATA_FIELD_DEF(uint32_t, tilesAlongN);
  TILING_DATA_FIELD_DEF(uint32_t, groupRows);   // swizzle group height (in tiles) for L2 reuse
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmCfg);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SymmetricPairMatmulCustom, SymmetricPairMatmulTilingData)
}
#endif
