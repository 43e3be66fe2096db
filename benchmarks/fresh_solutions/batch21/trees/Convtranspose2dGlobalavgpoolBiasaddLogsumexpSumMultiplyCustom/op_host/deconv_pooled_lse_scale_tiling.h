#ifndef DECONV_POOLED_LSE_SCALE_TILING_H
#define DECONV_POOLED_LSE_SCALE_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DeconvPooledLseScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);     // H * W of the input
  TILING_DATA_FIELD_DEF(uint32_t, kernelArea);    // kh * kw
  TILING_DATA_FIELD_DEF(uint32_t, planeTile);     // elements per UB tile while summing a plane
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore); // phase 1: (n, ci) planes per core
  TILING_DATA_FIELD_DEF(uint32_t, planeRemainder);
  TILING_DATA_FIELD_DEF(uint32_t, batchPerCore);  // phase 2: samples per core
  TILING_DATA_FIELD_DEF(uint32_t, batchRemainder);
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
  TILING_DATA_FIELD_DEF(float, invOutArea);       // 1 / (Ho * Wo)
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DeconvPooledLseScale, DeconvPooledLseScaleTilingData)

ge::graphStatus DeconvPooledLseScaleTilingFunc(gert::TilingContext *context);
}  // namespace optiling
#endif
