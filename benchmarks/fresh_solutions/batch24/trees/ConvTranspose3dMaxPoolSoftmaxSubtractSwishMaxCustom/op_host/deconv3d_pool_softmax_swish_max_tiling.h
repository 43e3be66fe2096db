#ifndef DECONV3D_POOL_SOFTMAX_SWISH_MAX_TILING_H
#define DECONV3D_POOL_SOFTMAX_SWISH_MAX_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv3dPoolSoftmaxSwishMaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, din);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, wout);       // deconv output width
  TILING_DATA_FIELD_DEF(uint32_t, phaseLen);   // ceil(wout / stride), 8-aligned
  TILING_DATA_FIELD_DEF(uint32_t, poolK);
  TILING_DATA_FIELD_DEF(uint32_t, poolS);
  TILING_DATA_FIELD_DEF(uint32_t, dp);         // pooled extents
  TILING_DATA_FIELD_DEF(uint32_t, hp);
  TILING_DATA_FIELD_DEF(uint32_t, wp);
  TILING_DATA_FIELD_DEF(uint32_t, wpAlign);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore); // pooled rows (n, dp, hp)
  TILING_DATA_FIELD_DEF(uint32_t, rowsExtra);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv3dPoolSoftmaxSwishMax, Deconv3dPoolSoftmaxSwishMaxTilingData)

ge::graphStatus Deconv3dPoolSoftmaxSwishMaxTilingFunc(gert::TilingContext *context);
}
#endif
