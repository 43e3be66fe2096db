/**
 * @file deconv2d_neg_gelu_scale_tiling.h
 * Tiling data for Deconv2dNegGeluScale: transposed 2-D convolution followed by
 * (x + shift) -> min(.,0) -> GELU -> * scale.
 */
#ifndef DECONV2D_NEG_GELU_SCALE_TILING_H
#define DECONV2D_NEG_GELU_SCALE_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv2dNegGeluScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, kernelH);
  TILING_DATA_FIELD_DEF(uint32_t, kernelW);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);     // inW rounded up to 8 floats (32 B)
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);    // outW rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, ciChunk);      // input channels kept resident in UB at once
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);    // batch * outH
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(float, shift);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv2dNegGeluScale, Deconv2dNegGeluScaleTilingData)

ge::graphStatus Deconv2dNegGeluScaleTilingFunc(gert::TilingContext* context);
}  // namespace optiling

#endif  // DECONV2D_NEG_GELU_SCALE_TILING_H
