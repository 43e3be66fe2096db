#ifndef DILATED_TRANSPOSED_CONV2D_TILING_H
#define DILATED_TRANSPOSED_CONV2D_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DilatedTransposedConv2dTiling)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cIn);
  TILING_DATA_FIELD_DEF(uint32_t, cOut);
  TILING_DATA_FIELD_DEF(uint32_t, hIn);
  TILING_DATA_FIELD_DEF(uint32_t, wIn);
  TILING_DATA_FIELD_DEF(uint32_t, hOut);
  TILING_DATA_FIELD_DEF(uint32_t, wOut);
  TILING_DATA_FIELD_DEF(uint32_t, ks);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, wInPad);      // wIn rounded to 8 (zero slot lives at this index)
  TILING_DATA_FIELD_DEF(uint32_t, wOutPad);     // wOut rounded to 8
  TILING_DATA_FIELD_DEF(uint32_t, ocTile);      // output channels per accumulator tile
  TILING_DATA_FIELD_DEF(uint32_t, ocTiles);
  TILING_DATA_FIELD_DEF(uint32_t, wTileElems);  // ocTile * ks * ks rounded to 8
  TILING_DATA_FIELD_DEF(uint32_t, items);       // n * ocTiles * hOut
  TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, withBias);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DilatedTransposedConv2d, DilatedTransposedConv2dTiling)
}
#endif
