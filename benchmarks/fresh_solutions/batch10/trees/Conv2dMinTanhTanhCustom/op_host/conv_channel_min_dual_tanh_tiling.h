#ifndef CONV_CHANNEL_MIN_DUAL_TANH_TILING_H
#define CONV_CHANNEL_MIN_DUAL_TANH_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvChannelMinDualTanhTiling)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, ih);
  TILING_DATA_FIELD_DEF(uint32_t, iw);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, tileW);        // output columns per work item (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);  // ceil(ow / tileW)
  TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore); // work item = (batch, output row, column tile)
  TILING_DATA_FIELD_DEF(uint32_t, itemsRem);     // first itemsRem cores take one more item
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvChannelMinDualTanh, ConvChannelMinDualTanhTiling)
}
#endif
