#ifndef PLANAR_CONV_GATHER_TILING_H
#define PLANAR_CONV_GATHER_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PlanarConvGatherTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, withBias);
  TILING_DATA_FIELD_DEF(uint32_t, rowStride);   // UB stride of one staged input row (>= win + 1, 32B aligned)
  TILING_DATA_FIELD_DEF(uint32_t, woutAlign);   // wout rounded to 16
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);     // output channels whose weights stay resident in UB
  TILING_DATA_FIELD_DEF(uint32_t, lineBase);    // output lines (n, ho) per core
  TILING_DATA_FIELD_DEF(uint32_t, lineExtra);   // first lineExtra cores take one more line
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PlanarConvGather, PlanarConvGatherTilingData)
}
#endif
