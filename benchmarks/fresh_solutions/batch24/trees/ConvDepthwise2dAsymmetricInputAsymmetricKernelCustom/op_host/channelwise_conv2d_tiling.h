#ifndef CHANNELWISE_CONV2D_TILING_H
#define CHANNELWISE_CONV2D_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelwiseConv2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);      // N * C
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, strideH);
  TILING_DATA_FIELD_DEF(uint32_t, strideW);
  TILING_DATA_FIELD_DEF(uint32_t, padH);
  TILING_DATA_FIELD_DEF(uint32_t, padW);
  TILING_DATA_FIELD_DEF(uint32_t, dilH);
  TILING_DATA_FIELD_DEF(uint32_t, dilW);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, woutAlign);
  TILING_DATA_FIELD_DEF(uint32_t, leftPad);     // zero elements in front of the staged input row (aligned)
  TILING_DATA_FIELD_DEF(uint32_t, rowBufLen);   // staged input row length incl. padding
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore); // output rows (plane, oh) per core
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ChannelwiseConv2d, ChannelwiseConv2dTilingData)

ge::graphStatus ChannelwiseConv2dTilingFunc(gert::TilingContext *context);
}
#endif
