#ifndef GEMM_NT_TILING_H
#define GEMM_NT_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmNtTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, usedCoreNum);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmNt, GemmNtTilingData)

ge::graphStatus GemmNtTilingFunc(gert::TilingContext *context);
}
#endif
