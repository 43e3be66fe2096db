/**
 * Tiling data for TransposedConv1dDilated.
 *
 * The output sequence of every batch element is cut into windows of
 * `outTile` positions.  A window is one unit of work; windows are spread
 * over the vector cores round-robin-free (contiguous ranges).
 */
#ifndef TRANSPOSED_CONV1D_DILATED_TILING_H
#define TRANSPOSED_CONV1D_DILATED_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TransposedConv1dDilatedTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);
    TILING_DATA_FIELD_DEF(uint32_t, inChannels);
    TILING_DATA_FIELD_DEF(uint32_t, outChannels);
    TILING_DATA_FIELD_DEF(uint32_t, inLength);
    TILING_DATA_FIELD_DEF(uint32_t, outLength);
    TILING_DATA_FIELD_DEF(uint32_t, kernelSize);
    TILING_DATA_FIELD_DEF(int32_t, stride);
    TILING_DATA_FIELD_DEF(int32_t, padding);
    TILING_DATA_FIELD_DEF(int32_t, dilation);
    TILING_DATA_FIELD_DEF(uint32_t, hasBias);
    TILING_DATA_FIELD_DEF(uint32_t, outTile);        // output positions per window (multiple of 8)
    TILING_DATA_FIELD_DEF(uint32_t, spanMax);        // input positions a window can touch (aligned)
    TILING_DATA_FIELD_DEF(uint32_t, tilesPerBatch);
    TILING_DATA_FIELD_DEF(uint32_t, totalTiles);
    TILING_DATA_FIELD_DEF(uint32_t, tilesPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, tilesTail);
    TILING_DATA_FIELD_DEF(uint32_t, weightInUb);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TransposedConv1dDilated, TransposedConv1dDilatedTilingData)

ge::graphStatus TransposedConv1dDilatedTilingFunc(gert::TilingContext *context);
}  // namespace optiling

#endif  // TRANSPOSED_CONV1D_DILATED_TILING_H
