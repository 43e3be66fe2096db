/*!
 * \file tril_tri_matmul_tiling.h
 * \brief tiling data for TrilTriMatmul (product of two lower-triangular matrices)
 */
#ifndef TRIL_TRI_MATMUL_TILING_H
#define TRIL_TRI_MATMUL_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TrilTriMatmulTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);          // matrix order
  TILING_DATA_FIELD_DEF(uint32_t, blk);        // square output block side
  TILING_DATA_FIELD_DEF(uint32_t, blkNum);     // ceil(n / blk)
  TILING_DATA_FIELD_DEF(uint32_t, workerNum);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TrilTriMatmul, TrilTriMatmulTilingData)
}  // namespace optiling
#endif
