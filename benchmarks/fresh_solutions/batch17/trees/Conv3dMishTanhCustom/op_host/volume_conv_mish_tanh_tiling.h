#ifndef VOLUME_CONV_MISH_TANH_TILING_H
#define VOLUME_CONV_MISH_TANH_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumeConvMishTanhTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, kD);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, sD);
  TILING_DATA_FIELD_DEF(uint32_t, sH);
  TILING_DATA_FIELD_DEF(uint32_t, sW);
  TILING_DATA_FIELD_DEF(uint32_t, pD);
  TILING_DATA_FIELD_DEF(uint32_t, pH);
  TILING_DATA_FIELD_DEF(uint32_t, pW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);    // output channels accumulated together in UB
  TILING_DATA_FIELD_DEF(uint32_t, lineCount);  // batch * outD * outH output lines
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(VolumeConvMishTanh, VolumeConvMishTanhTilingData)
}  // namespace optiling
#endif
