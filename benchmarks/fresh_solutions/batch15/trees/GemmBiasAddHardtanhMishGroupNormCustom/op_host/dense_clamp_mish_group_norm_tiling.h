#ifndef DENSE_CLAMP_MISH_GROUP_NORM_TILING_H
#define DENSE_CLAMP_MISH_GROUP_NORM_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseClampMishGroupNormTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, m);            // rows of x
  TILING_DATA_FIELD_DEF(uint32_t, n);            // output features
  TILING_DATA_FIELD_DEF(uint32_t, k);            // input features
  TILING_DATA_FIELD_DEF(uint32_t, blockM);       // rows per output block
  TILING_DATA_FIELD_DEF(uint32_t, blockN);       // columns per block, multiple of groupSize
  TILING_DATA_FIELD_DEF(uint32_t, groupSize);    // channels per group
  TILING_DATA_FIELD_DEF(float, clipLo);
  TILING_DATA_FIELD_DEF(float, clipHi);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseClampMishGroupNorm, DenseClampMishGroupNormTilingData)

ge::graphStatus DenseClampMishGroupNormTilingFunc(gert::TilingContext *context);
}
#endif
