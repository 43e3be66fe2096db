/**
 * Tiling data for ConvOffsetHswishPoolMish.
 * The kernel works on "units" = (batch, pooled row, output-channel block).
 */
#ifndef CONV_OFFSET_HSWISH_POOL_MISH_TILING_H
#define CONV_OFFSET_HSWISH_POOL_MISH_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvOffsetHswishPoolMishTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, convW);      // conv output width  (inW - kW + 1)
  TILING_DATA_FIELD_DEF(uint32_t, convWAlign); // convW rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, pool);       // square pool window == stride
  TILING_DATA_FIELD_DEF(uint32_t, poolH);      // pooled output height
  TILING_DATA_FIELD_DEF(uint32_t, poolW);      // pooled output width
  TILING_DATA_FIELD_DEF(uint32_t, poolWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);    // output channels handled per unit
  TILING_DATA_FIELD_DEF(uint32_t, coBlockNum);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsTail);  // first unitsTail cores take one extra unit
  TILING_DATA_FIELD_DEF(float, offset);        // value subtracted after the conv
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvOffsetHswishPoolMish, ConvOffsetHswishPoolMishTilingData)

ge::graphStatus ConvOffsetHswishPoolMishTilingFunc(gert::TilingContext *context);
} // namespace optiling
#endif
