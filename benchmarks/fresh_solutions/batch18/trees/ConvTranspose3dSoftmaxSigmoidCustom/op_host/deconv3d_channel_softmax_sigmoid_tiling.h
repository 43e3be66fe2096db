#ifndef DECONV3D_CHANNEL_SOFTMAX_SIGMOID_TILING_H
#define DECONV3D_CHANNEL_SOFTMAX_SIGMOID_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv3dSoftmaxSigmoidTiling)
  // input geometry
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  // output geometry
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, coutPad);     // cout rounded up to 8
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  // kernel
  TILING_DATA_FIELD_DEF(uint32_t, kD);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, strideD);
  TILING_DATA_FIELD_DEF(uint32_t, strideH);
  TILING_DATA_FIELD_DEF(uint32_t, strideW);
  TILING_DATA_FIELD_DEF(uint32_t, padD);
  TILING_DATA_FIELD_DEF(uint32_t, padH);
  TILING_DATA_FIELD_DEF(uint32_t, padW);
  // work split
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);   // batch * outD * outH
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, owTile);      // output columns per UB pass
  TILING_DATA_FIELD_DEF(uint32_t, inWPad);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv3dChannelSoftmaxSigmoid, Deconv3dSoftmaxSigmoidTiling)
}  // namespace optiling
#endif
