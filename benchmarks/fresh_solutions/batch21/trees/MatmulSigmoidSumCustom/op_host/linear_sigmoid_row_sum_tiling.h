#ifndef LINEAR_SIGMOID_ROW_SUM_TILING_H
#define LINEAR_SIGMOID_ROW_SUM_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearSigmoidRowSumTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LinearSigmoidRowSum, LinearSigmoidRowSumTilingData)

ge::graphStatus LinearSigmoidRowSumTiling(gert::TilingContext *context);
}
#endif
