#ifndef DECONV_BIAS_CLAMP_RESCALE_TILING_H
#define DECONV_BIAS_CLAMP_RESCALE_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DeconvBiasClampRescaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, phaseLen);    // columns per stride phase, 8-aligned
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore); // output rows (n, oh) per core
  TILING_DATA_FIELD_DEF(uint32_t, rowsExtra);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DeconvBiasClampRescale, DeconvBiasClampRescaleTilingData)

ge::graphStatus DeconvBiasClampRescaleTiling(gert::TilingContext *context);
}
#endif
