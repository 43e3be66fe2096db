#ifndef DECONV2D_CLIP_GELU_SCALE_TILING_H
#define DECONV2D_CLIP_GELU_SCALE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv2dClipGeluScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, upWAlign);     // row pitch of the zero-inserted input
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTask);  // output rows computed per task
  TILING_DATA_FIELD_DEF(uint32_t, rowBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);
  TILING_DATA_FIELD_DEF(float, addValue);
  TILING_DATA_FIELD_DEF(float, mulValue);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv2dClipGeluScale, Deconv2dClipGeluScaleTilingData)
}
#endif
