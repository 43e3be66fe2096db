#ifndef NARROW_K_MATMUL_TILING_H
#define NARROW_K_MATMUL_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(NarrowKMatmulTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, mBlocks);   // number of singleCoreM slabs along M
  TILING_DATA_FIELD_DEF(uint32_t, nBlocks);   // number of singleCoreN slabs along N
  TILING_DATA_FIELD_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(NarrowKMatmul, NarrowKMatmulTilingData)
}  // namespace optiling
#endif
