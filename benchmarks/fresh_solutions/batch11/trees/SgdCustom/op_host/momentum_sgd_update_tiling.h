#ifndef MOMENTUM_SGD_UPDATE_TILING_H
#define MOMENTUM_SGD_UPDATE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MomentumSgdUpdateTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);   // real element count
  TILING_DATA_FIELD_DEF(uint32_t, formerNum);     // cores that take formerLength elements
  TILING_DATA_FIELD_DEF(uint32_t, formerLength);
  TILING_DATA_FIELD_DEF(uint32_t, tailLength);    // remaining cores take tailLength elements
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);
  TILING_DATA_FIELD_DEF(float, lr);
  TILING_DATA_FIELD_DEF(float, momentum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MomentumSgdUpdate, MomentumSgdUpdateTilingData)

ge::graphStatus MomentumSgdUpdateTiling(gert::TilingContext *ctx);
} // namespace optiling
#endif
