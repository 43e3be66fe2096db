#ifndef VALID_CONV2D_TILING_H
#define VALID_CONV2D_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ValidConv2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, strideH);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowCap);      // UB row pitch, multiple of 64
  TILING_DATA_FIELD_DEF(uint32_t, chanTile);    // output channels per pass
  TILING_DATA_FIELD_DEF(uint32_t, chanTiles);
  TILING_DATA_FIELD_DEF(uint32_t, withBias);
  TILING_DATA_FIELD_DEF(uint32_t, jobs);
  TILING_DATA_FIELD_DEF(uint32_t, jobsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ValidConv2d, ValidConv2dTilingData)
}
#endif
