#ifndef CONV_GATED_GROUP_NORM_TILING_H
#define CONV_GATED_GROUP_NORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// Valid (no padding, stride 1) 2-D convolution followed by per-channel shift/scale,
// sigmoid and group normalization.
BEGIN_TILING_DATA_DEF(ConvGatedGroupNormTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWPad);      // outW rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile);  // output rows computed per conv tile
  TILING_DATA_FIELD_DEF(uint32_t, normChunk);    // flat elements per normalization chunk
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);      // batch * groups
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvGatedGroupNorm, ConvGatedGroupNormTiling)

ge::graphStatus ConvGatedGroupNormTilingFunc(gert::TilingContext *ctx);
} // namespace optiling
#endif
