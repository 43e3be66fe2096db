#ifndef POINTWISE_CHANNEL_MIX_TILING_H
#define POINTWISE_CHANNEL_MIX_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PointwiseChannelMixTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);       // K of the GEMM
  TILING_DATA_FIELD_DEF(uint32_t, cout);      // M of the GEMM
  TILING_DATA_FIELD_DEF(uint32_t, pixels);    // H * W, N of the GEMM
  TILING_DATA_FIELD_DEF(uint32_t, colTile);   // pixel columns per work item
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerImage);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PointwiseChannelMix, PointwiseChannelMixTilingData)
}  // namespace optiling
#endif
