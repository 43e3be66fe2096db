/**
 * @file linear_row_total_tiling.h
 * Tiling data of LinearRowTotal: y[m] = sum_n (x[m,:] . W[n,:] + b[n]).
 */
#ifndef LINEAR_ROW_TOTAL_TILING_H
#define LINEAR_ROW_TOTAL_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearRowTotalTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // M: rows of x
  TILING_DATA_FIELD_DEF(uint32_t, inFeatures);   // K
  TILING_DATA_FIELD_DEF(uint32_t, outFeatures);  // N: rows of weight
  TILING_DATA_FIELD_DEF(uint32_t, colsPerCore);  // K columns of W reduced by one core (stage 1)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // rows of x handled by one core (stage 2)
  TILING_DATA_FIELD_DEF(uint32_t, tileK);        // elements per UB tile along K
  TILING_DATA_FIELD_DEF(uint32_t, biasTile);     // elements per UB tile along N for the bias sum
  TILING_DATA_FIELD_DEF(uint32_t, wsOffsetBias); // element offset of the bias total in workspace
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearRowTotal, LinearRowTotalTilingData)

ge::graphStatus LinearRowTotalTilingFunc(gert::TilingContext *context);
} // namespace optiling

#endif // LINEAR_ROW_TOTAL_TILING_H
