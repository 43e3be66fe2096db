#ifndef DEPTHWISE_CONV_BN_CLIP_TILING_H
#define DEPTHWISE_CONV_BN_CLIP_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DepthwiseConvBnClipTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, rowPitch);     // UB row pitch of a staged input row (elements)
  TILING_DATA_FIELD_DEF(uint32_t, zeroCol);      // column inside each staged row that is always 0
  TILING_DATA_FIELD_DEF(uint32_t, bandRows);     // output rows computed per band
  TILING_DATA_FIELD_DEF(uint32_t, bandInRows);   // input rows staged per band
  TILING_DATA_FIELD_DEF(uint32_t, bandsPerPlane);
  TILING_DATA_FIELD_DEF(uint32_t, totalBands);
  TILING_DATA_FIELD_DEF(uint32_t, bandsPerCore);
  TILING_DATA_FIELD_DEF(float, clipMax);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DepthwiseConvBnClip, DepthwiseConvBnClipTilingData)

ge::graphStatus DepthwiseConvBnClipTiling(gert::TilingContext *context);
} // namespace optiling
#endif
