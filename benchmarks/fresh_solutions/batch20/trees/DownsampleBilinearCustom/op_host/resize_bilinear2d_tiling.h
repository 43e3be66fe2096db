#ifndef RESIZE_BILINEAR2D_TILING_H
#define RESIZE_BILINEAR2D_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ResizeBilinear2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);       // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(float, scaleH);          // source step per output row
  TILING_DATA_FIELD_DEF(float, scaleW);
  TILING_DATA_FIELD_DEF(uint32_t, alignCorners);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTotal);    // planes * outH
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsRemain);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ResizeBilinear2d, ResizeBilinear2dTilingData)
}
#endif
