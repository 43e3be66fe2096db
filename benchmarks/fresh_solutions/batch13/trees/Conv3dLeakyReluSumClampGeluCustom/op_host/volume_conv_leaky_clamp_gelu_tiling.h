#ifndef VOLUME_CONV_LEAKY_CLAMP_GELU_TILING_H
#define VOLUME_CONV_LEAKY_CLAMP_GELU_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumeConvLeakyClampGeluTiling)
  // geometry
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, kD);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  // partitioning
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // output rows (n, od, oh) per core
  TILING_DATA_FIELD_DEF(uint32_t, rowsRemainder);
  TILING_DATA_FIELD_DEF(uint32_t, widthTile);     // output columns per pass (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, chanTile);      // output channels whose weights sit in UB
  // epilogue
  TILING_DATA_FIELD_DEF(float, negativeSlope);
  TILING_DATA_FIELD_DEF(float, clampMin);
  TILING_DATA_FIELD_DEF(float, clampMax);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VolumeConvLeakyClampGelu, VolumeConvLeakyClampGeluTiling)
} // namespace optiling
#endif
