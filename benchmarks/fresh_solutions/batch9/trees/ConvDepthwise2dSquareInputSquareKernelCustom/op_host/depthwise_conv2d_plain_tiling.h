#ifndef DEPTHWISE_CONV2D_PLAIN_TILING_H
#define DEPTHWISE_CONV2D_PLAIN_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DepthwiseConv2dPlainTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);      // square kernel side
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWPad);     // outW rounded to 64
  TILING_DATA_FIELD_DEF(uint32_t, lead);        // zero columns in front of a staged input row (>= pad, multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);      // staged input row length in UB, multiple of 64
  TILING_DATA_FIELD_DEF(uint64_t, unitsPerCore);// output rows (n, c, oh) per core
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(DepthwiseConv2dPlain, DepthwiseConv2dPlainTiling)

ge::graphStatus DepthwiseConv2dPlainTilingFunc(gert::TilingContext *context);
}
#endif
