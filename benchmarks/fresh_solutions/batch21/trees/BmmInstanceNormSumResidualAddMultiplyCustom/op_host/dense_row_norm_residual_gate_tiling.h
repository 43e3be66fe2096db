#ifndef DENSE_ROW_NORM_RESIDUAL_GATE_TILING_H
#define DENSE_ROW_NORM_RESIDUAL_GATE_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseRowNormResidualGateTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // M: batch rows
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // N: output features
  TILING_DATA_FIELD_DEF(uint32_t, vecCoreNum);    // vector cores used by the epilogue
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);      // first rowsTail cores take one extra row
  TILING_DATA_FIELD_DEF(uint32_t, colTile);       // epilogue tile width (elements)
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invCols);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseRowNormResidualGate, DenseRowNormResidualGateTilingData)

ge::graphStatus DenseRowNormResidualGateTilingFunc(gert::TilingContext *context);
}  // namespace optiling
#endif
