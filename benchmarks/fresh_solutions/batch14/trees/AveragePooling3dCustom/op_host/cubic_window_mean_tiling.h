#ifndef CUBIC_WINDOW_MEAN_TILING_H
#define CUBIC_WINDOW_MEAN_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CubicWindowMeanTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);   // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, rowBufLen);  // padded input row buffer (floats)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);  // planes * outD * outH output rows
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CubicWindowMean, CubicWindowMeanTilingData)

ge::graphStatus CubicWindowMeanTiling(gert::TilingContext *ctx);
} // namespace optiling
#endif
