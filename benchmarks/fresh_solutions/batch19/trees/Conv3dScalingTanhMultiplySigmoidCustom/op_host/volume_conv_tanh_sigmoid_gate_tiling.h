#ifndef VOLUME_CONV_TANH_SIGMOID_GATE_TILING_H
#define VOLUME_CONV_TANH_SIGMOID_GATE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumeConvTanhSigmoidGateTiling)
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
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);     // row pitch inside UB (multiple of 8 floats)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);   // output rows (along H) produced per work item
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerPlane); // ceil(outH / rowsPerTile)
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);    // batch * outC * outD * tilesPerPlane
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VolumeConvTanhSigmoidGate, VolumeConvTanhSigmoidGateTiling)
}
#endif
