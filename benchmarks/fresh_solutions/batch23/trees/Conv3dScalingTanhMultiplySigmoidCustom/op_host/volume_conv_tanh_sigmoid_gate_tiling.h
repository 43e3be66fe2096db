#ifndef VOLUME_CONV_TANH_SIGMOID_GATE_TILING_H
#define VOLUME_CONV_TANH_SIGMOID_GATE_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumeConvTanhSigmoidGateTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inCh);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outCh);
  TILING_DATA_FIELD_DEF(uint32_t, kD);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowStride);   // outW padded to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, chPerPass);   // output channels accumulated per pass
  TILING_DATA_FIELD_DEF(uint32_t, rowCount);    // batch * outD * outH
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(VolumeConvTanhSigmoidGate, VolumeConvTanhSigmoidGateTilingData)

ge::graphStatus VolumeConvTanhSigmoidGateTiling(gert::TilingContext* context);
}
#endif
