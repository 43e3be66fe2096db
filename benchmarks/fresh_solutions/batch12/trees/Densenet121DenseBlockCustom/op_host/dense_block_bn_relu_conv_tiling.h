#ifndef DENSE_BLOCK_BN_RELU_CONV_TILING_H
#define DENSE_BLOCK_BN_RELU_CONV_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseBlockBnReluConvTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);    // C0: channels of x
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);   // C0 + numLayers * growth
  TILING_DATA_FIELD_DEF(uint32_t, height);
  TILING_DATA_FIELD_DEF(uint32_t, width);
  TILING_DATA_FIELD_DEF(uint32_t, widthAlign);
  TILING_DATA_FIELD_DEF(uint32_t, numLayers);
  TILING_DATA_FIELD_DEF(uint32_t, growth);
  TILING_DATA_FIELD_DEF(uint32_t, gBlock);        // new channels accumulated at once
  TILING_DATA_FIELD_DEF(uint32_t, copyTile);      // elements per chunk for the initial x -> y copy
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseBlockBnReluConv, DenseBlockBnReluConvTilingData)
}  // namespace optiling
#endif
