#ifndef PIECEWISE_SIGMOID_TILING_H
#define PIECEWISE_SIGMOID_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PiecewiseSigmoidTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);     // number of elements
  TILING_DATA_FIELD_DEF(uint64_t, perCoreNum);   // elements owned by cores 0..n-2 (32B aligned)
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // elements per UB tile
  TILING_DATA_FIELD_DEF(float, alpha);           // slope
  TILING_DATA_FIELD_DEF(float, beta);            // offset
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PiecewiseSigmoid, PiecewiseSigmoidTilingData)

ge::graphStatus PiecewiseSigmoidTiling(gert::TilingContext *context);
}
#endif
