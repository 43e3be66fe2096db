// tiling data for depthwise 3x3 conv (pad 1) + per-channel affine + relu
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MobilenetV1CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, c);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, ho);
  TILING_DATA_FIELD_DEF(uint32_t, wo);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, relu);
  TILING_DATA_FIELD_DEF(uint32_t, bandRows);
  TILING_DATA_FIELD_DEF(uint32_t, bandsPerPlane);
  TILING_DATA_FIELD_DEF(uint32_t, totalBands);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MobilenetV1Custom, MobilenetV1CustomTilingData)
}
