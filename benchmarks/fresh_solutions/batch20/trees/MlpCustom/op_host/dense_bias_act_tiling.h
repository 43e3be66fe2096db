#ifndef DENSE_BIAS_ACT_TILING_H
#define DENSE_BIAS_ACT_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseBiasActTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // M
  TILING_DATA_FIELD_DEF(uint32_t, inFeatures);   // K
  TILING_DATA_FIELD_DEF(uint32_t, outFeatures);  // N
  TILING_DATA_FIELD_DEF(uint32_t, applyRelu);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseBiasAct, DenseBiasActTilingData)
}
#endif
