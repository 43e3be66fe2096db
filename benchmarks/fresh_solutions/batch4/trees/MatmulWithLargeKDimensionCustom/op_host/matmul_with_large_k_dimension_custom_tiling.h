#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MatmulWithLargeKDimensionCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);        // rows of A / C
  TILING_DATA_FIELD_DEF(uint32_t, n);        // cols of B / C
  TILING_DATA_FIELD_DEF(uint32_t, k);        // full reduction length
  TILING_DATA_FIELD_DEF(uint32_t, k_per);    // K slice handled by one core
  TILING_DATA_FIELD_DEF(uint32_t, k_tail);   // K slice of the last core
  TILING_DATA_FIELD_DEF(uint32_t, blk_num);  // number of cores that get a slice
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm_tiling);      // tiling for a k_per slice
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm_tiling_tail); // tiling for the tail slice
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MatmulWithLargeKDimensionCustom, MatmulWithLargeKDimensionCustomTilingData)
}
