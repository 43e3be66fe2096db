// Tiling for ThinInnerGemm: C(M, N) = A(M, K) * B(K, N), tuned for a short reduction axis.
#ifndef THIN_INNER_GEMM_TILING_H
#define THIN_INNER_GEMM_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ThinInnerGemmTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ThinInnerGemm, ThinInnerGemmTilingData)

ge::graphStatus ThinInnerGemmTiling(gert::TilingContext *context);
}

#endif // THIN_INNER_GEMM_TILING_H
