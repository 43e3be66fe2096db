#ifndef BOUNDED_LINEAR_CLIP_TILING_H
#define BOUNDED_LINEAR_CLIP_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BoundedLinearClipTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalElems);
  TILING_DATA_FIELD_DEF(uint64_t, elemsPerCore);  // multiple of the 32-byte block, last core takes the rest
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);     // elements per UB tile
  TILING_DATA_FIELD_DEF(float, lower);
  TILING_DATA_FIELD_DEF(float, upper);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BoundedLinearClip, BoundedLinearClipTilingData)
} // namespace optiling
#endif
