/**
 * @file linear_scaled_gelu_tiling.h
 * @brief Tiling data for LinearScaledGelu: y = gelu((x @ weight^T + bias) / divisor).
 */
#ifndef LINEAR_SCALED_GELU_TILING_H
#define LINEAR_SCALED_GELU_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearScaledGeluTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);
  TILING_DATA_FIELD_DEF(uint32_t, epiTileLen);   // floats per epilogue UB tile
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  TILING_DATA_FIELD_DEF(float, invDivisor);
  TILING_DATA_FIELD_DEF(uint32_t, reserved);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearScaledGelu, LinearScaledGeluTilingData)

ge::graphStatus LinearScaledGeluTilingFunc(gert::TilingContext* context);
} // namespace optiling

#endif // LINEAR_SCALED_GELU_TILING_H
