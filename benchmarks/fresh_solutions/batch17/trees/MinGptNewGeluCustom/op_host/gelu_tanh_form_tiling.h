#ifndef GELU_TANH_FORM_TILING_H
#define GELU_TANH_FORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GeluTanhFormTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, total);        // number of elements
  TILING_DATA_FIELD_DEF(uint64_t, perCore);      // elements per core (multiple of 64 except the last core)
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements per UB tile
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(GeluTanhForm, GeluTanhFormTilingData)
}  // namespace optiling
#endif
