#ifndef VOLUME_CONV3D_TILING_H
#define VOLUME_CONV3D_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
// Spatial axes are called a0, a1, a2 in memory order (x is N, C, a0, a1, a2).
BEGIN_TILING_DATA_DEF(VolumeConv3dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, inDim);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, outDim);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, ksz);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, stride);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, pad);
  TILING_DATA_FIELD_DEF_ARR(uint32_t, 3, dil);
  TILING_DATA_FIELD_DEF(uint32_t, cinPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, coutPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, pitch);         // UB row pitch (elements) of one a1 line of the output plane
  TILING_DATA_FIELD_DEF(uint32_t, rowTile);       // a1 lines per pass
  TILING_DATA_FIELD_DEF(uint32_t, rowTiles);
  TILING_DATA_FIELD_DEF(uint32_t, coTile);        // output channels per pass (inside one group)
  TILING_DATA_FIELD_DEF(uint32_t, coTilesPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  TILING_DATA_FIELD_DEF(uint32_t, units);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(VolumeConv3d, VolumeConv3dTilingData)

ge::graphStatus VolumeConv3dTilingFunc(gert::TilingContext *context);
} // namespace optiling
#endif
