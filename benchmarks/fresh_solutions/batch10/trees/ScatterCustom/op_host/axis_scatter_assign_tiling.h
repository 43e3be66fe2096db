#ifndef AXIS_SCATTER_ASSIGN_TILING_H
#define AXIS_SCATTER_ASSIGN_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// The tensors are viewed as [outer, axis, inner] around the scatter axis.
// A "slab" is everything belonging to one outer index: axisX * inner values of
// x/y and axisI * inner values of index/updates.
BEGIN_TILING_DATA_DEF(AxisScatterAssignTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);
  TILING_DATA_FIELD_DEF(uint32_t, axisX);
  TILING_DATA_FIELD_DEF(uint32_t, axisI);
  TILING_DATA_FIELD_DEF(uint32_t, inner);
  TILING_DATA_FIELD_DEF(uint64_t, slabX);
  TILING_DATA_FIELD_DEF(uint64_t, slabI);
  TILING_DATA_FIELD_DEF(uint32_t, chunkX);      // elements of y resident in UB at once
  TILING_DATA_FIELD_DEF(uint32_t, chunkI);      // index/update elements per scan step
  TILING_DATA_FIELD_DEF(uint32_t, slabsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, slabsTail);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AxisScatterAssign, AxisScatterAssignTilingData)
}  // namespace optiling
#endif
