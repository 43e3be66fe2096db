#ifndef VOLUME_CONV_GROUP_NORM_CLIP_TILING_H
#define VOLUME_CONV_GROUP_NORM_CLIP_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumeConvGroupNormClipTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerStep);   // output rows (along H) computed per conv step
  TILING_DATA_FIELD_DEF(uint32_t, normChunk);     // elements per normalisation tile
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);    // batch * groups
  TILING_DATA_FIELD_DEF(uint64_t, totalOut);      // for the constant fast path
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, cap);
  TILING_DATA_FIELD_DEF(float, clipLow);
  TILING_DATA_FIELD_DEF(float, clipHigh);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VolumeConvGroupNormClip, VolumeConvGroupNormClipTilingData)
}  // namespace optiling
#endif
