/**
 * @file axis_prod_tiling.h
 * Tiling data for AxisProd: multiplicative reduction of one axis.
 */
#ifndef AXIS_PROD_TILING_H
#define AXIS_PROD_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AxisProdTilingData)
  // input viewed as [outerSize, axisSize, innerSize]
  TILING_DATA_FIELD_DEF(uint32_t, outerSize);
  TILING_DATA_FIELD_DEF(uint32_t, axisSize);
  TILING_DATA_FIELD_DEF(uint32_t, innerSize);
  // inner axis is cut in column tiles of tileCols elements
  TILING_DATA_FIELD_DEF(uint32_t, tileCols);
  TILING_DATA_FIELD_DEF(uint32_t, colTilesPerRow);
  // work units (outer x colTiles) distributed over the cores
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailUnits);
  // last-axis mode: length of one contiguous chunk folded in UB
  TILING_DATA_FIELD_DEF(uint32_t, foldLen);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AxisProd, AxisProdTilingData)
}  // namespace optiling
#endif  // AXIS_PROD_TILING_H
