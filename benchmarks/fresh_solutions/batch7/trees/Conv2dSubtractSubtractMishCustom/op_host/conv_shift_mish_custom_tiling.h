#ifndef CONV_SHIFT_MISH_CUSTOM_TILING_H
#define CONV_SHIFT_MISH_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// y = mish(conv2d(x, w, b) - shift_a - shift_b), stride 1, no padding.
// Work unit: one output row segment (n, oh, w-segment) for all output channels.
BEGIN_TILING_DATA_DEF(ConvShiftMishTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, segW);        // output columns per segment
  TILING_DATA_FIELD_DEF(uint32_t, segAlign);    // segW rounded up to 8
  TILING_DATA_FIELD_DEF(uint32_t, segNum);      // ceil(outW / segW)
  TILING_DATA_FIELD_DEF(uint32_t, chanGroup);   // output channels per write-back burst
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);     // batch * outH * segNum
  TILING_DATA_FIELD_DEF(float, shift);          // shift_a + shift_b
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvShiftMishCustom, ConvShiftMishTilingData)
}
#endif
