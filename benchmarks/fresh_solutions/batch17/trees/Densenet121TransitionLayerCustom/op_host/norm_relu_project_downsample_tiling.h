#ifndef NORM_RELU_PROJECT_DOWNSAMPLE_TILING_H
#define NORM_RELU_PROJECT_DOWNSAMPLE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(NormReluProjectDownsampleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, segOut);     // pooled columns handled per segment
  TILING_DATA_FIELD_DEF(uint32_t, segNum);     // ceil(outW / segOut)
  TILING_DATA_FIELD_DEF(uint32_t, coChunk);    // output channels produced per pass
  TILING_DATA_FIELD_DEF(uint32_t, statChunk);  // elements per load in the statistics pass
  TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(NormReluProjectDownsample, NormReluProjectDownsampleTilingData)
}  // namespace optiling
#endif
