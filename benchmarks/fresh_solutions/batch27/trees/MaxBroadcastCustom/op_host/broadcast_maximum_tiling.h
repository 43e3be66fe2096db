/**
 * @file broadcast_maximum_tiling.h
 * @brief Tiling data for BroadcastMaximum (element-wise max with numpy-style broadcasting).
 */
#ifndef BROADCAST_MAXIMUM_TILING_H
#define BROADCAST_MAXIMUM_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
constexpr uint32_t BMAX_MAX_DIMS = 8;

BEGIN_TILING_DATA_DEF(BroadcastMaximumTilingData)
  // 64-bit fields first to keep the serialized layout naturally aligned.
  TILING_DATA_FIELD_DEF(uint64_t, rowNum);          // number of output "rows" (product of outer dims)
  TILING_DATA_FIELD_DEF(uint64_t, rowsPerCore);     // base number of rows per core
  TILING_DATA_FIELD_DEF(uint64_t, rowsRemainder);   // first rowsRemainder cores get one more row
  TILING_DATA_FIELD_DEF_ARR(uint64_t, 8, outerShape);   // output sizes of the outer (non-inner) dims
  TILING_DATA_FIELD_DEF_ARR(uint64_t, 8, aOuterStride); // element stride of input a per outer dim (0 = broadcast)
  TILING_DATA_FIELD_DEF_ARR(uint64_t, 8, bOuterStride); // element stride of input b per outer dim (0 = broadcast)
  TILING_DATA_FIELD_DEF(uint32_t, outerDimNum);     // number of valid entries in outerShape
  TILING_DATA_FIELD_DEF(uint32_t, innerLen);        // length of the contiguous innermost output dim
  TILING_DATA_FIELD_DEF(uint32_t, aInnerContig);    // 1: a varies along the inner dim, 0: a is constant along it
  TILING_DATA_FIELD_DEF(uint32_t, bInnerContig);    // 1: b varies along the inner dim, 0: b is constant along it
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);         // elements processed per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BroadcastMaximum, BroadcastMaximumTilingData)

ge::graphStatus BroadcastMaximumTilingFunc(gert::TilingContext* context);
} // namespace optiling

#endif // BROADCAST_MAXIMUM_TILING_H
