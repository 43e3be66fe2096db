#ifndef CUMULATIVE_PRODUCT_TILING_H
#define CUMULATIVE_PRODUCT_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CumulativeProductTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);
  TILING_DATA_FIELD_DEF(uint32_t, len);         // length of the scanned axis
  TILING_DATA_FIELD_DEF(uint32_t, inner);
  TILING_DATA_FIELD_DEF(uint32_t, mode);        // 0: lanes are the inner axis, 1: lanes are rows (inner == 1)
  TILING_DATA_FIELD_DEF(uint32_t, laneTile);    // mode 0: inner elements per lane tile (aligned)
  TILING_DATA_FIELD_DEF(uint32_t, laneTiles);   // mode 0: ceil(inner / laneTile)
  TILING_DATA_FIELD_DEF(uint32_t, stepRows);    // mode 0: scan steps loaded per DMA
  TILING_DATA_FIELD_DEF(uint32_t, rowGroup);    // mode 1: rows scanned side by side (lanes)
  TILING_DATA_FIELD_DEF(uint32_t, colWindow);   // mode 1: axis elements per window
  TILING_DATA_FIELD_DEF(uint32_t, units);       // work units in total
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CumulativeProduct, CumulativeProductTilingData)
}  // namespace optiling
#endif
