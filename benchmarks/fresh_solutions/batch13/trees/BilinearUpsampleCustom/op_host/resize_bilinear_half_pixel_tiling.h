#ifndef RESIZE_BILINEAR_HALF_PIXEL_TILING_H
#define RESIZE_BILINEAR_HALF_PIXEL_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ResizeBilinearHalfPixelTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);        // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, inWPad);        // inW rounded up to 8 elements
  TILING_DATA_FIELD_DEF(uint32_t, outWPad);
  TILING_DATA_FIELD_DEF(float, invScaleH);        // source step per destination pixel
  TILING_DATA_FIELD_DEF(float, invScaleW);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // output rows (over all planes)
  TILING_DATA_FIELD_DEF(uint32_t, rowsLeft);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ResizeBilinearHalfPixel, ResizeBilinearHalfPixelTilingData)

ge::graphStatus ResizeBilinearHalfPixelTilingFunc(gert::TilingContext *context);
}
#endif
