#ifndef WINDOW_MAX_POOL_TILING_H
#define WINDOW_MAX_POOL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
// WindowMaxPool: square-window max pooling over the two trailing axes of an NCHW tensor.
BEGIN_TILING_DATA_DEF(WindowMaxPoolTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);      // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, step);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, lead);        // aligned left margin inside a row buffer
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);      // elements of a padded row buffer
  TILING_DATA_FIELD_DEF(uint32_t, outWPad);     // outW rounded to 32 bytes
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore); // output rows (over all planes) per core
  TILING_DATA_FIELD_DEF(uint32_t, extraRows);   // first extraRows cores take one more
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(WindowMaxPool, WindowMaxPoolTilingData)
}
#endif
