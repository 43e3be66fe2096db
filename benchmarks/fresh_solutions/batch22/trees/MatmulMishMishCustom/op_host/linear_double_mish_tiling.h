#ifndef LINEAR_DOUBLE_MISH_TILING_H
#define LINEAR_DOUBLE_MISH_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearDoubleMishTilingData)
  TILING_DATA_FIELD_DEF(float, expClamp);              // inputs above this give tanh(softplus(x)) == 1
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);     // x[M,K] @ w[N,K]^T + b
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LinearDoubleMish, LinearDoubleMishTilingData)

ge::graphStatus LinearDoubleMishTilingFunc(gert::TilingContext *context);
}  // namespace optiling
#endif
