#ifndef UPSAMPLE_AFFINE_WARP_TILING_H
#define UPSAMPLE_AFFINE_WARP_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(UpsampleAffineWarpTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, inWPad);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, outWPad);
  TILING_DATA_FIELD_DEF(float, invScaleH);     // source step of the resize, 1 / scale
  TILING_DATA_FIELD_DEF(float, invScaleW);
  TILING_DATA_FIELD_DEF(uint32_t, gridRowsPerCore);  // phase 1: (n, out row) records per core
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);    // phase 2: (n, c) planes per core
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(UpsampleAffineWarp, UpsampleAffineWarpTilingData)
}
#endif
