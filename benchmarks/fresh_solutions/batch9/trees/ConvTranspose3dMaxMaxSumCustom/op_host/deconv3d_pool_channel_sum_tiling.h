#ifndef DECONV3D_POOL_CHANNEL_SUM_TILING_H
#define DECONV3D_POOL_CHANNEL_SUM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv3dPoolChannelSumTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, window);     // pool1 * pool2: conv voxels per final voxel per axis
  TILING_DATA_FIELD_DEF(uint32_t, outD);       // final (pooled) extents
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, ciTile);     // input channels whose repacked weights fit in UB at once
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);
  TILING_DATA_FIELD_DEF(uint32_t, cinPerCore); // weight repack split
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv3dPoolChannelSum, Deconv3dPoolChannelSumTiling)
}
#endif
