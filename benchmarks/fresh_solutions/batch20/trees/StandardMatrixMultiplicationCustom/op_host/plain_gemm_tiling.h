#ifndef PLAIN_GEMM_TILING_H
#define PLAIN_GEMM_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PlainGemmTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, transA);
  TILING_DATA_FIELD_DEF(uint32_t, transB);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(PlainGemm, PlainGemmTilingData)

ge::graphStatus PlainGemmTilingFunc(gert::TilingContext *context);
} // namespace optiling
#endif
