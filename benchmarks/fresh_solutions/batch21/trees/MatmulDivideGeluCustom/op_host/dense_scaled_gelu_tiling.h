#ifndef DENSE_SCALED_GELU_TILING_H
#define DENSE_SCALED_GELU_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseScaledGeluTilingData)
  TILING_DATA_FIELD_DEF(float, invDivisor);      // 1 / divisor, folded into the epilogue
  TILING_DATA_FIELD_DEF(uint32_t, erfTmpBytes);  // scratch for the Erf API
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseScaledGelu, DenseScaledGeluTilingData)

ge::graphStatus DenseScaledGeluTilingFunc(gert::TilingContext *context);
}  // namespace optiling
#endif
