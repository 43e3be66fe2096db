#ifndef CONV_GN_SCALE_MAXPOOL_CLAMP_TILING_H
#define CONV_GN_SCALE_MAXPOOL_CLAMP_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvGnScaleMaxPoolClampTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, owAlign);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, pool);
  TILING_DATA_FIELD_DEF(uint32_t, ph);
  TILING_DATA_FIELD_DEF(uint32_t, pw);
  TILING_DATA_FIELD_DEF(uint32_t, pwAlign);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);  // unit = (batch, group)
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, lo);
  TILING_DATA_FIELD_DEF(float, hi);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvGnScaleMaxPoolClamp, ConvGnScaleMaxPoolClampTiling)

ge::graphStatus ConvGnScaleMaxPoolClampTilingFunc(gert::TilingContext* context);
}
#endif
