#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvTransposed1dDilatedCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, kernelSize);
  TILING_DATA_FIELD_DEF(uint32_t, inLength);
  TILING_DATA_FIELD_DEF(uint32_t, outLength);
  TILING_DATA_FIELD_DEF(uint32_t, padding);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, interiorBegin);   // first output index whose taps are all in range
  TILING_DATA_FIELD_DEF(uint32_t, interiorEnd);     // one past the last such index
  TILING_DATA_FIELD_DEF(uint32_t, tileLength);      // output positions per vector tile
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);    // (batch * tilesPerRow) / blockDim
  TILING_DATA_FIELD_DEF(uint32_t, unitsRemainder);
  TILING_DATA_FIELD_DEF(uint32_t, edgeCapacity);    // aligned length of the edge scratch rows
  TILING_DATA_FIELD_DEF(uint32_t, weightLength);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvTransposed1dDilatedCustom, ConvTransposed1dDilatedCustomTilingData)
}
