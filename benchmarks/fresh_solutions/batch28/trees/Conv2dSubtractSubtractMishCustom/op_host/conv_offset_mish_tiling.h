/**
 * Tiling data for ConvOffsetMish.
 *
 * The kernel walks output rows (n, oh); every row is split into column
 * tiles of at most `colTile` elements and all output channels of one tile
 * are accumulated together in the Unified Buffer.
 */
#ifndef CONV_OFFSET_MISH_TILING_H
#define CONV_OFFSET_MISH_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvOffsetMishTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);
    TILING_DATA_FIELD_DEF(uint32_t, inChannels);
    TILING_DATA_FIELD_DEF(uint32_t, inHeight);
    TILING_DATA_FIELD_DEF(uint32_t, inWidth);
    TILING_DATA_FIELD_DEF(uint32_t, outChannels);
    TILING_DATA_FIELD_DEF(uint32_t, kernelH);
    TILING_DATA_FIELD_DEF(uint32_t, kernelW);
    TILING_DATA_FIELD_DEF(uint32_t, outHeight);
    TILING_DATA_FIELD_DEF(uint32_t, outWidth);
    TILING_DATA_FIELD_DEF(uint32_t, colTile);        // valid columns per tile
    TILING_DATA_FIELD_DEF(uint32_t, colTileAlign);   // colTile rounded up to 8 floats
    TILING_DATA_FIELD_DEF(uint32_t, totalRows);      // batch * outHeight
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, rowsTail);       // first rowsTail cores take one more row
    TILING_DATA_FIELD_DEF(uint32_t, weightCount);    // outC * inC * kH * kW
    TILING_DATA_FIELD_DEF(uint32_t, weightInUb);     // 1: weights cached in UB
    TILING_DATA_FIELD_DEF(float, offsetA);
    TILING_DATA_FIELD_DEF(float, offsetB);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvOffsetMish, ConvOffsetMishTilingData)

ge::graphStatus ConvOffsetMishTilingFunc(gert::TilingContext *context);
}  // namespace optiling

#endif  // CONV_OFFSET_MISH_TILING_H
