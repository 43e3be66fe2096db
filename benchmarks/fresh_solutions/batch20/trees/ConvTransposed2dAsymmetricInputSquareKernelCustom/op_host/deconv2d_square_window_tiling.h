/**
 * Tiling data for Deconv2dSquareWindow (2-D transposed convolution, K x K window).
 */
#ifndef DECONV2D_SQUARE_WINDOW_TILING_H
#define DECONV2D_SQUARE_WINDOW_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv2dSquareWindowTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, cinPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, coutPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, phaseLen);      // aligned length of one stride phase of an output row
  TILING_DATA_FIELD_DEF(uint32_t, inRowAlign);    // aligned UB length of one staged input row
  TILING_DATA_FIELD_DEF(uint32_t, outRowAlign);   // aligned UB length of one output row
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // output rows (n, co, oh) per core
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);      // first rowsTail cores take one extra row
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv2dSquareWindow, Deconv2dSquareWindowTilingData)

ge::graphStatus Deconv2dSquareWindowTilingFunc(gert::TilingContext *context);
} // namespace optiling

#endif // DECONV2D_SQUARE_WINDOW_TILING_H
