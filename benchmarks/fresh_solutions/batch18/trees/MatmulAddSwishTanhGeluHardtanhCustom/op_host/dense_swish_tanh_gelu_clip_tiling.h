#ifndef DENSE_SWISH_TANH_GELU_CLIP_TILING_H
#define DENSE_SWISH_TANH_GELU_CLIP_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseSwishTanhGeluClipTiling)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // M
  TILING_DATA_FIELD_DEF(uint32_t, cols);        // N (out features)
  TILING_DATA_FIELD_DEF(uint32_t, depth);       // K (in features)
  TILING_DATA_FIELD_DEF(uint32_t, epiCols);     // columns handled per epilogue step
  TILING_DATA_FIELD_DEF(float, clipLow);
  TILING_DATA_FIELD_DEF(float, clipHigh);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseSwishTanhGeluClip, DenseSwishTanhGeluClipTiling)
}  // namespace optiling
#endif
