#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddBiasFourDimBroadcastCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);       // H * W
  TILING_DATA_FIELD_DEF(uint32_t, planeCount);      // N * C
  TILING_DATA_FIELD_DEF(uint32_t, planesPerTile);   // >1 only when planes are 32B aligned and small
  TILING_DATA_FIELD_DEF(uint32_t, chunkLength);     // used when a plane is split (planesPerTile == 1)
  TILING_DATA_FIELD_DEF(uint32_t, basePlanes);      // planes per core
  TILING_DATA_FIELD_DEF(uint32_t, extraPlanes);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddBiasFourDimBroadcastCustom, AddBiasFourDimBroadcastCustomTilingData)
}
