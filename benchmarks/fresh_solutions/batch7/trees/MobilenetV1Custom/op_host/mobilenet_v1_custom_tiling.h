#include "register/tilingdata_base.h"

namespace optiling {
// Depthwise 3x3 convolution (padding 1) on an NHWC activation, the hot part of MobileNetV1.
BEGIN_TILING_DATA_DEF(MobilenetV1CustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, cTile);        // channels handled per vector repeat (<= 64)
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);   // (C / cTile) * N * outH
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MobilenetV1Custom, MobilenetV1CustomTilingData)
}
