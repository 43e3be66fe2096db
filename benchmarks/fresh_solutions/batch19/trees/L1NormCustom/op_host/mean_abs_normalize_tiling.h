#ifndef MEAN_ABS_NORMALIZE_TILING_H
#define MEAN_ABS_NORMALIZE_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
// x is viewed as [outer, reduceLen, inner]; statistics are taken over reduceLen.
BEGIN_TILING_DATA_DEF(MeanAbsNormalizeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);
  TILING_DATA_FIELD_DEF(uint32_t, inner);
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);  // task = one row (inner == 1) or one inner slab
  TILING_DATA_FIELD_DEF(uint32_t, taskCount);
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);      // elements per UB chunk
  TILING_DATA_FIELD_DEF(uint32_t, slabsPerOuter); // inner / chunkLen rounded up (inner > 1 only)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MeanAbsNormalize, MeanAbsNormalizeTilingData)

ge::graphStatus MeanAbsNormalizeTilingFunc(gert::TilingContext *context);
}  // namespace optiling
#endif
