#ifndef DECONV2D_BN_TANH_POOL_GN_TILING_H
#define DECONV2D_BN_TANH_POOL_GN_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv2dBnTanhPoolGnTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, wPitch);      // staged input row pitch (>= w + 1, multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, owPitch);     // conv row pitch in UB (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, ph);
  TILING_DATA_FIELD_DEF(uint32_t, pw);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, chPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(float, bnEps);
  TILING_DATA_FIELD_DEF(float, gnEps);
  TILING_DATA_FIELD_DEF(uint64_t, statsOffset); // float offset of the (n, c) pooled stats in workspace
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Deconv2dBnTanhPoolGn, Deconv2dBnTanhPoolGnTilingData)

ge::graphStatus Deconv2dBnTanhPoolGnTilingFunc(gert::TilingContext *context);
}
#endif
