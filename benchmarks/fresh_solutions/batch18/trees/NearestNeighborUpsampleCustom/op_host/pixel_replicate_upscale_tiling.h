#ifndef PIXEL_REPLICATE_UPSCALE_TILING_H
#define PIXEL_REPLICATE_UPSCALE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PixelReplicateUpscaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(float, invScaleH);   // source = floor(dst * invScale)
  TILING_DATA_FIELD_DEF(float, invScaleW);
  TILING_DATA_FIELD_DEF(uint64_t, outRows);  // planes * outH
  TILING_DATA_FIELD_DEF(uint64_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PixelReplicateUpscale, PixelReplicateUpscaleTilingData)
}  // namespace optiling
#endif
