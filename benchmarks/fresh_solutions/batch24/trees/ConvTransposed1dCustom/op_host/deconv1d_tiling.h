/**
 * Tiling data for Deconv1d (1-D transposed convolution, NCL layout).
 */
#ifndef DECONV1D_TILING_H
#define DECONV1D_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv1dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, lenIn);
  TILING_DATA_FIELD_DEF(uint32_t, lenOut);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // (n, co) rows handled by one core
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // output positions per UB tile
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv1d, Deconv1dTilingData)
}  // namespace optiling
#endif  // DECONV1D_TILING_H
