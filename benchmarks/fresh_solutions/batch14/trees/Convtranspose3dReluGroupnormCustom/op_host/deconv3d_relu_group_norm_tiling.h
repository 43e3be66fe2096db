#ifndef DECONV3D_RELU_GROUP_NORM_TILING_H
#define DECONV3D_RELU_GROUP_NORM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv3dReluGroupNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);      // outW rounded up to 8 floats (32 bytes)
  TILING_DATA_FIELD_DEF(uint32_t, numGroups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, totalJobs);      // batch * numGroups
  TILING_DATA_FIELD_DEF(uint32_t, jobsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, normTile);       // elements per chunk in the normalisation pass
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv3dReluGroupNorm, Deconv3dReluGroupNormTilingData)
}  // namespace optiling
#endif
