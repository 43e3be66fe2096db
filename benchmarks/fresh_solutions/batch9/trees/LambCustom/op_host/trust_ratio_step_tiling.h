#ifndef TRUST_RATIO_STEP_TILING_H
#define TRUST_RATIO_STEP_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TrustRatioStepTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);   // elements in param
  TILING_DATA_FIELD_DEF(uint64_t, perCore);    // elements per core (multiple of 64)
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);    // elements per UB tile
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF(float, lr);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TrustRatioStep, TrustRatioStepTilingData)
}
#endif
