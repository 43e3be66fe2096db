#ifndef SUBTRACT_TRAILING_BIAS_TILING_H
#define SUBTRACT_TRAILING_BIAS_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SubtractTrailingBiasTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);         // product of all leading dims of x
  TILING_DATA_FIELD_DEF(uint32_t, cols);         // last dim of x == length of bias
  TILING_DATA_FIELD_DEF(uint32_t, colTile);      // columns per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsLeft);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SubtractTrailingBias, SubtractTrailingBiasTilingData)

ge::graphStatus SubtractTrailingBiasTilingFunc(gert::TilingContext *context);
}
#endif
