#ifndef PLANAR_TRANSPOSED_CONV_TILING_H
#define PLANAR_TRANSPOSED_CONV_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
// Geometry of a 2-D transposed convolution with stride / padding / dilation /
// groups, plus the per-core split of output rows (n, oc, oh).
BEGIN_TILING_DATA_DEF(PlanarTransposedConvTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, ci);
  TILING_DATA_FIELD_DEF(uint32_t, hi);
  TILING_DATA_FIELD_DEF(uint32_t, wi);
  TILING_DATA_FIELD_DEF(uint32_t, co);
  TILING_DATA_FIELD_DEF(uint32_t, ho);
  TILING_DATA_FIELD_DEF(uint32_t, wo);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, sh);
  TILING_DATA_FIELD_DEF(uint32_t, sw);
  TILING_DATA_FIELD_DEF(uint32_t, ph);
  TILING_DATA_FIELD_DEF(uint32_t, pw);
  TILING_DATA_FIELD_DEF(uint32_t, dh);
  TILING_DATA_FIELD_DEF(uint32_t, dw);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, withBias);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTotal);
  TILING_DATA_FIELD_DEF(uint32_t, rowsBase);    // rows for each core
  TILING_DATA_FIELD_DEF(uint32_t, rowsExtra);   // first rowsExtra cores take one more
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(PlanarTransposedConv, PlanarTransposedConvTilingData)

ge::graphStatus PlanarTransposedConvTilingFunc(gert::TilingContext *context);
}  // namespace optiling
#endif
