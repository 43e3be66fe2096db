#ifndef STRIDED_DILATED_DECONV1D_TILING_H
#define STRIDED_DILATED_DECONV1D_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(StridedDilatedDeconv1dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // N
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);   // Cin
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);  // Cout
  TILING_DATA_FIELD_DEF(uint32_t, inLen);        // L
  TILING_DATA_FIELD_DEF(uint32_t, outLen);       // (L-1)*s - 2p + d*(K-1) + 1
  TILING_DATA_FIELD_DEF(uint32_t, kernelSize);   // K
  TILING_DATA_FIELD_DEF(int32_t, stride);
  TILING_DATA_FIELD_DEF(int32_t, padding);
  TILING_DATA_FIELD_DEF(int32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, colsPerTile);  // input-domain columns per tile (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);  // tiles along the output length of one sample
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);   // batch * tilesPerRow
  TILING_DATA_FIELD_DEF(uint32_t, weightElems);  // Cin*Cout*K rounded up to 8
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(StridedDilatedDeconv1dCustom, StridedDilatedDeconv1dTilingData)
}
#endif
