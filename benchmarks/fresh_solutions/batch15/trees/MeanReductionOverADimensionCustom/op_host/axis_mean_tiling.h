#ifndef AXIS_MEAN_TILING_H
#define AXIS_MEAN_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
// The input is viewed as [outer, reduce, inner]; the reduced axis is removed.
BEGIN_TILING_DATA_DEF(AxisMeanTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, outer);
  TILING_DATA_FIELD_DEF(uint64_t, reduce);
  TILING_DATA_FIELD_DEF(uint64_t, inner);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements of the kept axis (or reduced axis when inner==1) per tile
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerLoad);  // reduce rows brought in by one DMA (inner>1 path)
  TILING_DATA_FIELD_DEF(uint64_t, tilesPerOuter);
  TILING_DATA_FIELD_DEF(uint64_t, totalUnits);
  TILING_DATA_FIELD_DEF(uint64_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(float, invReduce);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AxisMean, AxisMeanTilingData)

ge::graphStatus AxisMeanTilingFunc(gert::TilingContext* context);
}  // namespace optiling

#endif
