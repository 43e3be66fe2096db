#ifndef DENSE_BIAS_RECTIFY_TILING_H
#define DENSE_BIAS_RECTIFY_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseBiasRectifyTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);       // M
  TILING_DATA_FIELD_DEF(uint32_t, cols);       // N
  TILING_DATA_FIELD_DEF(uint32_t, depth);      // K
  TILING_DATA_FIELD_DEF(uint32_t, workers);    // vector cores issuing cube work
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseBiasRectify, DenseBiasRectifyTilingData)
}
#endif
