#ifndef TRUST_RATIO_PARAM_UPDATE_TILING_H
#define TRUST_RATIO_PARAM_UPDATE_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TrustRatioParamUpdateTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, total);        // number of parameter elements
  TILING_DATA_FIELD_DEF(uint64_t, perCore);      // elements of every core except the last
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);
  TILING_DATA_FIELD_DEF(uint32_t, coreCount);
  TILING_DATA_FIELD_DEF(float, lr);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TrustRatioParamUpdate, TrustRatioParamUpdateTilingData)

ge::graphStatus TrustRatioParamUpdateTilingFunc(gert::TilingContext *context);
}  // namespace optiling
#endif
