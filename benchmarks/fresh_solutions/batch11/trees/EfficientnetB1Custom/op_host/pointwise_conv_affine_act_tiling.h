#ifndef POINTWISE_CONV_AFFINE_ACT_TILING_H
#define POINTWISE_CONV_AFFINE_ACT_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PointwiseConvAffineActTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, spatial);      // H * W
  TILING_DATA_FIELD_DEF(uint32_t, spatialTile);  // columns of one per-core GEMM
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerImage);
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
  TILING_DATA_FIELD_DEF(uint32_t, activation);   // 0 none, 1 relu, 2 relu6
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PointwiseConvAffineAct, PointwiseConvAffineActTilingData)

ge::graphStatus PointwiseConvAffineActTiling(gert::TilingContext *context);
} // namespace optiling
#endif
