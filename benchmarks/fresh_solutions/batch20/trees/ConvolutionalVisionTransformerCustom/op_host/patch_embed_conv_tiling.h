#ifndef PATCH_EMBED_CONV_TILING_H
#define PATCH_EMBED_CONV_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PatchEmbedConvTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, embedDim);
  TILING_DATA_FIELD_DEF(uint32_t, patch);
  TILING_DATA_FIELD_DEF(uint32_t, gridH);        // height / patch
  TILING_DATA_FIELD_DEF(uint32_t, gridW);        // width / patch
  TILING_DATA_FIELD_DEF(uint32_t, rowPitch);     // UB pitch of one staged image row (elements)
  TILING_DATA_FIELD_DEF(uint32_t, colPitch);     // UB pitch of one im2col column (elements)
  TILING_DATA_FIELD_DEF(uint32_t, units);        // batch * gridH patch rows
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PatchEmbedConv, PatchEmbedConvTilingData)
}
#endif
