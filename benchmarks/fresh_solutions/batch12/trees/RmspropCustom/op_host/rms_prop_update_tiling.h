#ifndef RMS_PROP_UPDATE_TILING_H
#define RMS_PROP_UPDATE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RmsPropUpdateTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);     // number of parameters
  TILING_DATA_FIELD_DEF(uint64_t, perCoreNum);   // elements per core (multiple of alignElem, last core may be shorter)
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // elements processed per loop iteration
  TILING_DATA_FIELD_DEF(float, lr);
  TILING_DATA_FIELD_DEF(float, alpha);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RmsPropUpdate, RmsPropUpdateTilingData)
}  // namespace optiling
#endif  // RMS_PROP_UPDATE_TILING_H
