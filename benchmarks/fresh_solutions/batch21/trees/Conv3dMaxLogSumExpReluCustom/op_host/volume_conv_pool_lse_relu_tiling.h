#ifndef VOLUME_CONV_POOL_LSE_RELU_TILING_H
#define VOLUME_CONV_POOL_LSE_RELU_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumeConvPoolLseReluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, convW);      // conv output width
  TILING_DATA_FIELD_DEF(uint32_t, poolD);
  TILING_DATA_FIELD_DEF(uint32_t, poolH);
  TILING_DATA_FIELD_DEF(uint32_t, poolW);
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);     // aligned UB row length (full-resolution width)
  TILING_DATA_FIELD_DEF(uint32_t, poolLen);    // aligned pooled row length
  TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, itemsExtra);
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VolumeConvPoolLseRelu, VolumeConvPoolLseReluTilingData)

ge::graphStatus VolumeConvPoolLseReluTilingFunc(gert::TilingContext *context);
}  // namespace optiling
#endif
