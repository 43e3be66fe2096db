#ifndef ANTIALIAS_BILINEAR_RESIZE_TILING_H
#define ANTIALIAS_BILINEAR_RESIZE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AaResizeTiling)
  TILING_DATA_FIELD_DEF(uint32_t, planes);      // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(float, scaleH);         // in / out
  TILING_DATA_FIELD_DEF(float, scaleW);
  TILING_DATA_FIELD_DEF(float, supportH);       // filter half-width in input pixels
  TILING_DATA_FIELD_DEF(float, supportW);
  TILING_DATA_FIELD_DEF(uint32_t, tapsH);       // upper bound of taps per output row
  TILING_DATA_FIELD_DEF(uint32_t, tapsW);       // upper bound of taps per output column
  TILING_DATA_FIELD_DEF(uint32_t, inWPitch);    // UB pitch of an input row (x16)
  TILING_DATA_FIELD_DEF(uint32_t, outWPitch);   // UB pitch of an output row / tables (x16)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);   // planes * outH
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AntialiasBilinearResize, AaResizeTiling)
}  // namespace optiling
#endif
