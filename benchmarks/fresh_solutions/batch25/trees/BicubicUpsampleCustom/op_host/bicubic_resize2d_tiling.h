#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BicubicResize2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);       // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, alignCorners);
  TILING_DATA_FIELD_DEF(float, scaleH);          // source step per output row
  TILING_DATA_FIELD_DEF(float, scaleW);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BicubicResize2d, BicubicResize2dTilingData)
}
