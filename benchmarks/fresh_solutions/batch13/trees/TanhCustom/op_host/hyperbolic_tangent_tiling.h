#ifndef HYPERBOLIC_TANGENT_TILING_H
#define HYPERBOLIC_TANGENT_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HyperbolicTangentTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, elemTotal);
  TILING_DATA_FIELD_DEF(uint64_t, elemPerCore);   // multiple of the 32B block
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // elements per UB round
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);      // scratch for the Tanh library call
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HyperbolicTangent, HyperbolicTangentTilingData)

ge::graphStatus HyperbolicTangentTilingFunc(gert::TilingContext *context);
}
#endif
