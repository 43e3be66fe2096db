#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(NetVladWithGhostClustersCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, b_num);     // batch
  TILING_DATA_FIELD_DEF(uint32_t, k_num);     // real clusters
  TILING_DATA_FIELD_DEF(uint32_t, d_num);     // feature size
  TILING_DATA_FIELD_DEF(uint32_t, blk_num);   // cores used
  TILING_DATA_FIELD_DEF(uint32_t, b_per);     // batches per core (last core may get fewer)
  TILING_DATA_FIELD_DEF(uint32_t, k_blk);     // cluster rows moved per tile
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(NetVladWithGhostClustersCustom, NetVladWithGhostClustersCustomTilingData)
}
