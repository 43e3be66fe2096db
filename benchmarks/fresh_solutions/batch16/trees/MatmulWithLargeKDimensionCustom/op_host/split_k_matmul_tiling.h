#ifndef SPLIT_K_MATMUL_TILING_H
#define SPLIT_K_MATMUL_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SplitKMatmulTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, kSplit);        // number of K slices == cores used
  TILING_DATA_FIELD_DEF(uint32_t, kPerSlice);     // K length of every slice but the last
  TILING_DATA_FIELD_DEF(uint32_t, reducePerCore); // output elements each core reduces
  TILING_DATA_FIELD_DEF(uint32_t, reduceTile);    // elements per UB pass in the reduction
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SplitKMatmul, SplitKMatmulTilingData)
} // namespace optiling
#endif
