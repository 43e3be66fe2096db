#ifndef AXIS_LOG_NORMALIZE_TILING_H
#define AXIS_LOG_NORMALIZE_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
// The input is viewed as (outer, axis, inner); the reduction runs over `axis`.
BEGIN_TILING_DATA_DEF(AxisLogNormalizeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);
  TILING_DATA_FIELD_DEF(uint32_t, axisLen);
  TILING_DATA_FIELD_DEF(uint32_t, inner);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);     // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);     // rows (inner == 1) or (outer, inner-tile) pairs
  TILING_DATA_FIELD_DEF(uint32_t, innerTiles);
  TILING_DATA_FIELD_DEF(uint32_t, taskPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, taskRemain);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AxisLogNormalize, AxisLogNormalizeTilingData)

ge::graphStatus AxisLogNormalizeTilingFunc(gert::TilingContext *context);
}
#endif
