#ifndef ADAM_STEP_UPDATE_TILING_H
#define ADAM_STEP_UPDATE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AdamStepUpdateTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLen);
  TILING_DATA_FIELD_DEF(uint32_t, coreLen);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(float, beta1);
  TILING_DATA_FIELD_DEF(float, beta2);
  TILING_DATA_FIELD_DEF(float, oneMinusBeta1);
  TILING_DATA_FIELD_DEF(float, oneMinusBeta2);
  TILING_DATA_FIELD_DEF(float, stepSize);      // lr / (1 - beta1^t)
  TILING_DATA_FIELD_DEF(float, invBias2);      // 1 / (1 - beta2^t)
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AdamStepUpdate, AdamStepUpdateTilingData)
}
#endif
