#ifndef SHUFFLE_BOTTLENECK_BLOCK_TILING_H
#define SHUFFLE_BOTTLENECK_BLOCK_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ShuffleBottleneckBlockTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);
    TILING_DATA_FIELD_DEF(uint32_t, inCh);
    TILING_DATA_FIELD_DEF(uint32_t, midCh);
    TILING_DATA_FIELD_DEF(uint32_t, outCh);
    TILING_DATA_FIELD_DEF(uint32_t, height);
    TILING_DATA_FIELD_DEF(uint32_t, width);
    TILING_DATA_FIELD_DEF(uint32_t, groups);
    TILING_DATA_FIELD_DEF(uint32_t, hasProjection);  // 1: 1x1 conv + BN shortcut, 0: identity
    TILING_DATA_FIELD_DEF(uint32_t, pixTile);        // pixels per tile in the 1x1 stages
    TILING_DATA_FIELD_DEF(uint32_t, tilesPerImage);
    TILING_DATA_FIELD_DEF(uint32_t, rowStride);      // padded row length (elements) in the depthwise stage
    TILING_DATA_FIELD_DEF(uint32_t, wsGuard);        // guard elements around the workspace planes
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ShuffleBottleneckBlock, ShuffleBottleneckBlockTilingData)
} // namespace optiling
#endif
