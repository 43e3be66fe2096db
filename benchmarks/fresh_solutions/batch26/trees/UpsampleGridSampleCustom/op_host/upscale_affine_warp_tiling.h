#ifndef UPSCALE_AFFINE_WARP_TILING_H
#define UPSCALE_AFFINE_WARP_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(UpscaleAffineWarpTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);
    TILING_DATA_FIELD_DEF(uint32_t, channels);
    TILING_DATA_FIELD_DEF(uint32_t, inH);
    TILING_DATA_FIELD_DEF(uint32_t, inW);
    TILING_DATA_FIELD_DEF(uint32_t, outH);
    TILING_DATA_FIELD_DEF(uint32_t, outW);
    TILING_DATA_FIELD_DEF(uint32_t, inWAligned);    // UB row stride of the source plane
    TILING_DATA_FIELD_DEF(uint32_t, outWAligned);   // UB length of one output row
    TILING_DATA_FIELD_DEF(uint32_t, padStride);     // UB row stride of the zero-bordered upscaled plane
    TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
    TILING_DATA_FIELD_DEF(float, invScale);         // 1 / scale_factor
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(UpscaleAffineWarp, UpscaleAffineWarpTilingData)

ge::graphStatus UpscaleAffineWarpTilingFunc(gert::TilingContext *context);
}
#endif
