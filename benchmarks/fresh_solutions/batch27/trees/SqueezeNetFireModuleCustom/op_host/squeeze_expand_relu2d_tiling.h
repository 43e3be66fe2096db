/**
 * @file squeeze_expand_relu2d_tiling.h
 * @brief Tiling data for SqueezeExpandRelu2d:
 *        s = relu(conv1x1(x, Ws) + bs)
 *        y = concat_c(relu(conv1x1(s, W1) + b1), relu(conv3x3_pad1(s, W3) + b3))
 */
#ifndef SQUEEZE_EXPAND_RELU2D_TILING_H
#define SQUEEZE_EXPAND_RELU2D_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SqueezeExpandRelu2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, sqC);          // squeeze channels
  TILING_DATA_FIELD_DEF(uint32_t, e1C);          // 1x1 expand channels
  TILING_DATA_FIELD_DEF(uint32_t, e3C);          // 3x3 expand channels
  TILING_DATA_FIELD_DEF(uint32_t, bandRows);     // output rows per work unit
  TILING_DATA_FIELD_DEF(uint32_t, bandNum);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore); // units = batch * bandNum
  TILING_DATA_FIELD_DEF(uint32_t, unitsRemainder);
  // squeeze stage
  TILING_DATA_FIELD_DEF(uint32_t, sqTile);       // columns per squeeze tile (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, ciChunk);      // input channels whose squeeze weights are resident
  TILING_DATA_FIELD_DEF(uint32_t, ciChunkAligned);
  // expand stage
  TILING_DATA_FIELD_DEF(uint32_t, ocBlock);      // concatenated output channels per block
  TILING_DATA_FIELD_DEF(uint32_t, ocBlockNum);
  TILING_DATA_FIELD_DEF(uint32_t, owTile);       // output columns per tile (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, owTileNum);
  TILING_DATA_FIELD_DEF(uint32_t, rowCap);       // staged squeeze-row buffer (elements)
  TILING_DATA_FIELD_DEF(uint32_t, scratchPerCore); // floats of per-core squeeze scratch in workspace
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SqueezeExpandRelu2d, SqueezeExpandRelu2dTilingData)

ge::graphStatus SqueezeExpandRelu2dTilingFunc(gert::TilingContext* context);
} // namespace optiling

#endif // SQUEEZE_EXPAND_RELU2D_TILING_H
