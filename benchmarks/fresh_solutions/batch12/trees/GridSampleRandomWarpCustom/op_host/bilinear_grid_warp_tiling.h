#ifndef BILINEAR_GRID_WARP_TILING_H
#define BILINEAR_GRID_WARP_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BilinearGridWarpTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, alignCorners);
  TILING_DATA_FIELD_DEF(uint32_t, tileW);        // output columns per vector pass (multiple of 64)
  TILING_DATA_FIELD_DEF(uint32_t, bandElems);    // capacity of the UB row-band cache (elements)
  TILING_DATA_FIELD_DEF(uint32_t, linesPerCore); // output lines (n, ho) per core
  TILING_DATA_FIELD_DEF(uint32_t, linesRem);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BilinearGridWarp, BilinearGridWarpTilingData)
}  // namespace optiling
#endif
