#ifndef CONV_CHANNEL_MIN_DOUBLE_TANH_TILING_H
#define CONV_CHANNEL_MIN_DOUBLE_TANH_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
// A "row task" is one output row segment: (n, oh, [w0, w0 + tileW)).
BEGIN_TILING_DATA_DEF(ConvChannelMinDoubleTanhTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, tileW);        // output columns per row task (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, taskCount);    // batch * outH * tilesPerRow
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tasksRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvChannelMinDoubleTanh, ConvChannelMinDoubleTanhTilingData)

ge::graphStatus ConvChannelMinDoubleTanhTilingFunc(gert::TilingContext *context);
}
#endif
