#ifndef CHANNELWISE_CONV2D_TILING_H
#define CHANNELWISE_CONV2D_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelwiseConv2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, multiplier);   // out_channels / in_channels
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, outColsPerTile); // output columns produced per inner step
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);  // (n, oc) planes for the "big" cores
  TILING_DATA_FIELD_DEF(uint32_t, bigCores);       // cores that take planesPerCore, the rest take one less
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelwiseConv2d, ChannelwiseConv2dTilingData)

ge::graphStatus ChannelwiseConv2dTiling(gert::TilingContext *context);
} // namespace optiling
#endif
