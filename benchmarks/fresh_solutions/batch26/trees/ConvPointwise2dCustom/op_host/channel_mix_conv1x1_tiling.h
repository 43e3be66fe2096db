#ifndef CHANNEL_MIX_CONV1X1_TILING_H
#define CHANNEL_MIX_CONV1X1_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelMixConv1x1TilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);
    TILING_DATA_FIELD_DEF(uint32_t, inChannels);
    TILING_DATA_FIELD_DEF(uint32_t, outChannels);
    TILING_DATA_FIELD_DEF(uint32_t, spatial);        // H * W
    TILING_DATA_FIELD_DEF(uint32_t, colsPerTask);    // pixels per GEMM task
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerTask);    // output channels per GEMM task
    TILING_DATA_FIELD_DEF(uint32_t, withBias);
    TILING_DATA_FIELD_DEF(uint32_t, biasTile);       // elements per tile of the bias epilogue
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelMixConv1x1, ChannelMixConv1x1TilingData)
}
#endif
