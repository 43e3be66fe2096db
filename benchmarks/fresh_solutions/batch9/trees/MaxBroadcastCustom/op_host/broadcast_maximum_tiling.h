#ifndef BROADCAST_MAXIMUM_TILING_H
#define BROADCAST_MAXIMUM_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
constexpr uint32_t BMAX_MAX_RANK = 8;

BEGIN_TILING_DATA_DEF(BroadcastMaximumTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outerRank);                      // leading (non-innermost) dims
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, outerShape);              // output extent of each leading dim
  TILING_DATA_FIELD_DEF_ARR(uint64_t, 8, aStride);                 // element stride of a per leading dim (0 = broadcast)
  TILING_DATA_FIELD_DEF_ARR(uint64_t, 8, bStride);
  TILING_DATA_FIELD_DEF(uint32_t, innerLen);                       // output extent of the last dim
  TILING_DATA_FIELD_DEF(uint32_t, aInnerBcast);                    // 1: a has size 1 in the last dim
  TILING_DATA_FIELD_DEF(uint32_t, bInnerBcast);
  TILING_DATA_FIELD_DEF(uint64_t, outerRows);                      // product of outerShape
  TILING_DATA_FIELD_DEF(uint64_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);                        // elements per UB tile along the last dim
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(BroadcastMaximum, BroadcastMaximumTilingData)

ge::graphStatus BroadcastMaximumTilingFunc(gert::TilingContext *context);
}
#endif
