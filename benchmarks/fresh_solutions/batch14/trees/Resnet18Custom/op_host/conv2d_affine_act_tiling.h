#ifndef CONV2D_AFFINE_ACT_TILING_H
#define CONV2D_AFFINE_ACT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dAffineActTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, ocBlock);       // output channels accumulated together
  TILING_DATA_FIELD_DEF(uint32_t, ocBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTotal);     // batch * ocBlocks * outH work rows
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, hasResidual);
  TILING_DATA_FIELD_DEF(uint32_t, applyRelu);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dAffineAct, Conv2dAffineActTiling)
}  // namespace optiling
#endif
