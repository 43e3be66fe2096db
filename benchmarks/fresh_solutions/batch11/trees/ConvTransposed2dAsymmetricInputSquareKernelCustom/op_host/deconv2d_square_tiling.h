#ifndef DECONV2D_SQUARE_TILING_H
#define DECONV2D_SQUARE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv2dSquareTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);     // output channels accumulated together
  TILING_DATA_FIELD_DEF(uint32_t, coBlocksPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, owTile);      // output columns per tile (multiple of 16)
  TILING_DATA_FIELD_DEF(uint32_t, owTiles);
  TILING_DATA_FIELD_DEF(uint32_t, segMax);      // max input columns staged per tile
  TILING_DATA_FIELD_DEF(uint32_t, wPitch);      // padded row length of the UB weight block
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsExtra);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv2dSquare, Deconv2dSquareTilingData)
}
#endif
