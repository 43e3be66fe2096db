#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dSumResidualAddMultiplyResidualAddCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, subH);      // outH / stride
  TILING_DATA_FIELD_DEF(uint32_t, subW);      // outW / stride
  TILING_DATA_FIELD_DEF(uint32_t, subWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);   // output channels per tile
  TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dSumResidualAddMultiplyResidualAddCustom, ConvTranspose3dSumResidualAddMultiplyResidualAddCustomTilingData)
}
