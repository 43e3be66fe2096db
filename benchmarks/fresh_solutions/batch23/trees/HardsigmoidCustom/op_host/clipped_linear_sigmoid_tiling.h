#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ClippedLinearSigmoidTiling)
  TILING_DATA_FIELD_DEF(uint32_t, elemsPerCore);   // multiple of alignment, last core takes the rest
  TILING_DATA_FIELD_DEF(uint32_t, lastCoreElems);
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);
  TILING_DATA_FIELD_DEF(float, alpha);
  TILING_DATA_FIELD_DEF(float, beta);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ClippedLinearSigmoid, ClippedLinearSigmoidTiling)
}
