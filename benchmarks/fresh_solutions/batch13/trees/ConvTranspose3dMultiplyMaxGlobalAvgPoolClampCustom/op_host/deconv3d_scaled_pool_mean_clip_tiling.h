#ifndef DECONV3D_SCALED_POOL_MEAN_CLIP_TILING_H
#define DECONV3D_SCALED_POOL_MEAN_CLIP_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv3dScaledPoolMeanClipTilingData)
  // geometry
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, poolK);
  TILING_DATA_FIELD_DEF(uint32_t, poolD);      // pooled extents (floor mode)
  TILING_DATA_FIELD_DEF(uint32_t, poolH);
  TILING_DATA_FIELD_DEF(uint32_t, poolW);
  // scalars
  TILING_DATA_FIELD_DEF(float, scale);
  TILING_DATA_FIELD_DEF(float, lower);
  TILING_DATA_FIELD_DEF(float, upper);
  // split of the N*Cout (sample, channel) pairs
  TILING_DATA_FIELD_DEF(uint32_t, pairCount);
  TILING_DATA_FIELD_DEF(uint32_t, pairsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, pairsExtra);
  TILING_DATA_FIELD_DEF(uint32_t, filterStride);   // UB stride (floats) between input-channel filters
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv3dScaledPoolMeanClip, Deconv3dScaledPoolMeanClipTilingData)

ge::graphStatus Deconv3dScaledPoolMeanClipTilingFunc(gert::TilingContext *context);
}
#endif
