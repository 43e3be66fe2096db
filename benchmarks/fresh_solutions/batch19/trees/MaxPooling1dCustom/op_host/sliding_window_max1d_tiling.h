#ifndef SLIDING_WINDOW_MAX1D_TILING_H
#define SLIDING_WINDOW_MAX1D_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SlidingWindowMax1dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // product of all leading dims
  TILING_DATA_FIELD_DEF(uint32_t, inLen);
  TILING_DATA_FIELD_DEF(uint32_t, outLen);
  TILING_DATA_FIELD_DEF(uint32_t, window);
  TILING_DATA_FIELD_DEF(uint32_t, step);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, outTile);       // outputs produced per UB pass
  TILING_DATA_FIELD_DEF(uint32_t, stageLen);      // elements of the input staging buffer
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SlidingWindowMax1d, SlidingWindowMax1dTilingData)

ge::graphStatus SlidingWindowMax1dTilingFunc(gert::TilingContext *context);
}
#endif
