#include "register/tilingdata_base.h"

namespace optiling {
// Tiling for the fused depthwise conv + folded BatchNorm + ReLU6 stage of the MBConv block.
// Work is split over (n, c) planes; every core walks its planes one output row at a time.
BEGIN_TILING_DATA_DEF(EfficientnetMbConvCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);        // padded input row length in UB (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);     // output row length rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, totalPlanes);   // N * C
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(EfficientnetMbConvCustom, EfficientnetMbConvCustomTilingData)
}
