#ifndef TRAILING_AXES_LAYER_NORM_TILING_H
#define TRAILING_AXES_LAYER_NORM_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TrailingAxesLayerNormTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, rowLen);      // elements normalised together (= gamma size)
  TILING_DATA_FIELD_DEF(uint32_t, rowNum);      // number of independent rows
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, bigCores);    // cores [0, bigCores) take rowsPerCore + 1 rows
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);     // column tile streamed through UB
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TrailingAxesLayerNorm, TrailingAxesLayerNormTilingData)

ge::graphStatus TrailingAxesLayerNormTiling(gert::TilingContext *context);
} // namespace optiling
#endif
