#ifndef DW_SEPARABLE_BN_RELU_TILING_H
#define DW_SEPARABLE_BN_RELU_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DwSeparableBnReluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);       // depthwise window (square)
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, owTile);      // output columns per work unit
  TILING_DATA_FIELD_DEF(uint32_t, owTileAlign); // owTile rounded to 16
  TILING_DATA_FIELD_DEF(uint32_t, owChunks);    // ceil(outW / owTile)
  TILING_DATA_FIELD_DEF(uint32_t, slabStride);  // UB elements reserved per staged input channel
  TILING_DATA_FIELD_DEF(uint32_t, cBlock);      // input channels staged together (depthwise stage)
  TILING_DATA_FIELD_DEF(uint32_t, oBlock);      // output channels accumulated together (pointwise stage)
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsRem);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DwSeparableBnRelu, DwSeparableBnReluTilingData)
}  // namespace optiling
#endif
