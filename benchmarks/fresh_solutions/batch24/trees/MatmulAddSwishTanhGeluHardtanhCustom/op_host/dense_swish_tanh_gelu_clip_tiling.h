#ifndef DENSE_SWISH_TANH_GELU_CLIP_TILING_H
#define DENSE_SWISH_TANH_GELU_CLIP_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseSwishTanhGeluClipTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(float, clipMin);
  TILING_DATA_FIELD_DEF(float, clipMax);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseSwishTanhGeluClip, DenseSwishTanhGeluClipTilingData)
}
#endif
