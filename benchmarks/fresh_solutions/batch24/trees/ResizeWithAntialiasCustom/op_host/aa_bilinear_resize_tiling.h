#ifndef AA_BILINEAR_RESIZE_TILING_H
#define AA_BILINEAR_RESIZE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AaBilinearResizeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);      // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);    // inW rounded up to 64 elements
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(float, scaleH);         // inH / outH
  TILING_DATA_FIELD_DEF(float, scaleW);
  TILING_DATA_FIELD_DEF(float, supportH);       // filter half-width in input pixels
  TILING_DATA_FIELD_DEF(float, supportW);
  TILING_DATA_FIELD_DEF(uint32_t, tapsH);       // max taps per output row
  TILING_DATA_FIELD_DEF(uint32_t, tapsW);       // max taps per output column
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AaBilinearResize, AaBilinearResizeTilingData)
}
#endif
