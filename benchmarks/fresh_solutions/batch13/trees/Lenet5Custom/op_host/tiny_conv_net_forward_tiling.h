#ifndef TINY_CONV_NET_FORWARD_TILING_H
#define TINY_CONV_NET_FORWARD_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TinyConvNetTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);      // square conv kernel (both convs)
  TILING_DATA_FIELD_DEF(uint32_t, c1);         // conv1 out channels
  TILING_DATA_FIELD_DEF(uint32_t, c2);         // conv2 out channels
  TILING_DATA_FIELD_DEF(uint32_t, o1h);        // conv1 output size
  TILING_DATA_FIELD_DEF(uint32_t, o1w);
  TILING_DATA_FIELD_DEF(uint32_t, q1h);        // after pool1
  TILING_DATA_FIELD_DEF(uint32_t, q1w);
  TILING_DATA_FIELD_DEF(uint32_t, o2h);        // conv2 output size
  TILING_DATA_FIELD_DEF(uint32_t, o2w);
  TILING_DATA_FIELD_DEF(uint32_t, q2h);        // after pool2
  TILING_DATA_FIELD_DEF(uint32_t, q2w);
  TILING_DATA_FIELD_DEF(uint32_t, pitch1);     // UB row pitch of conv1 planes (multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, pitch2);     // UB row pitch of conv2 planes (multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, featLen);    // c2*q2h*q2w
  TILING_DATA_FIELD_DEF(uint32_t, hid1);
  TILING_DATA_FIELD_DEF(uint32_t, hid2);
  TILING_DATA_FIELD_DEF(uint32_t, classes);
  TILING_DATA_FIELD_DEF(uint32_t, tileSamples); // samples whose features go through the FC head together
  TILING_DATA_FIELD_DEF(uint32_t, fcRows);      // weight rows streamed per FC step (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, samplesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, samplesRem);
  TILING_DATA_FIELD_DEF(uint32_t, scratchPerCore); // floats of GM scratch per core
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TinyConvNetForward, TinyConvNetTilingData)
} // namespace optiling
#endif
