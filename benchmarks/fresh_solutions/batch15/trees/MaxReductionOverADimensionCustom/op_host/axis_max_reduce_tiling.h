#ifndef AXIS_MAX_REDUCE_TILING_H
#define AXIS_MAX_REDUCE_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AxisMaxReduceTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outerSize);
  TILING_DATA_FIELD_DEF(uint32_t, axisSize);
  TILING_DATA_FIELD_DEF(uint32_t, innerSize);
  TILING_DATA_FIELD_DEF(uint32_t, tileW);        // columns (or contiguous elements) per tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);  // ceil(innerSize / tileW), 1 for last-axis mode
  TILING_DATA_FIELD_DEF(uint32_t, jobsTotal);
  TILING_DATA_FIELD_DEF(uint32_t, jobsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, jobsRemain);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AxisMaxReduce, AxisMaxReduceTilingData)

ge::graphStatus AxisMaxReduceTilingFunc(gert::TilingContext *context);
}
#endif
