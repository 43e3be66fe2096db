#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, c);
  TILING_DATA_FIELD_DEF(uint32_t, d);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, od);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, wAlign);      // UB row pitch, multiple of 16 floats
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerTile); // output rows per tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerSlice);
  TILING_DATA_FIELD_DEF(uint32_t, numTiles);    // N*C*OD*tilesPerSlice
  TILING_DATA_FIELD_DEF(float, slope);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustom,
                           ConvTranspose3dLeakyReluMultiplyLeakyReluMaxCustomTilingData)
}
