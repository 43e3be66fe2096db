#ifndef HYPERBOLIC_TANGENT_TILING_H
#define HYPERBOLIC_TANGENT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HyperbolicTangentTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);
  TILING_DATA_FIELD_DEF(uint64_t, bigCoreNum);     // cores that take one extra tile
  TILING_DATA_FIELD_DEF(uint64_t, tilesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);        // elements per tile
  TILING_DATA_FIELD_DEF(uint32_t, tmpBytes);       // scratch for the Tanh math API
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HyperbolicTangent, HyperbolicTangentTilingData)
}
#endif
