/**
 * Tiling data for ConvNormActResidualLse.
 */
#ifndef CONV_NORM_ACT_RESIDUAL_LSE_TILING_H
#define CONV_NORM_ACT_RESIDUAL_LSE_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvNormActResidualLseTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, inHeight);
  TILING_DATA_FIELD_DEF(uint32_t, inWidth);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, kernelH);
  TILING_DATA_FIELD_DEF(uint32_t, kernelW);
  TILING_DATA_FIELD_DEF(uint32_t, outHeight);
  TILING_DATA_FIELD_DEF(uint32_t, outWidth);
  TILING_DATA_FIELD_DEF(uint32_t, rowStride);      // outWidth rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, numGroups);
  TILING_DATA_FIELD_DEF(uint32_t, samplesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailSamples);    // the first tailSamples cores take one extra sample
  TILING_DATA_FIELD_DEF(uint32_t, epiTileLen);     // spatial chunk for the normalisation/LSE pass
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvNormActResidualLse, ConvNormActResidualLseTilingData)

ge::graphStatus ConvNormActResidualLseTilingFunc(gert::TilingContext *context);
} // namespace optiling
#endif
