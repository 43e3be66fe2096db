/**
 * Tiling data for ChannelL2Normalize.
 *
 * The input is viewed as [outer, reduce, inner] where "reduce" is the
 * normalized axis (axis 1 of the original tensor).  A work unit is either a
 * whole row (inner == 1) or a slab of `innerTile` contiguous inner positions
 * of one outer index (inner > 1).
 */
#ifndef CHANNEL_L2_NORMALIZE_TILING_H
#define CHANNEL_L2_NORMALIZE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelL2NormalizeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outerSize);
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);
  TILING_DATA_FIELD_DEF(uint32_t, innerSize);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements handled per vector step
  TILING_DATA_FIELD_DEF(uint32_t, unitsTotal);   // rows or (outer, inner-slab) pairs
  TILING_DATA_FIELD_DEF(uint32_t, innerSlabs);   // slabs per outer index (column mode)
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsRemain);  // first `unitsRemain` cores take one more
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelL2Normalize, ChannelL2NormalizeTilingData)
}  // namespace optiling
#endif
