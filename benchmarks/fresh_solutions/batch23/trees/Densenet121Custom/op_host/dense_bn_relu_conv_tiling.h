/**
 * Tiling data for DenseBnReluConv: y = Conv2d(ReLU(x * scale[c] + shift[c]), weight)
 * (the pre-activation "composite function" used inside densely connected blocks).
 */
#ifndef DENSE_BN_RELU_CONV_TILING_H
#define DENSE_BN_RELU_CONV_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseBnReluConvTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);     // inW rounded up to 32B (in elements)
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);    // outW rounded up to 32B (in elements)
  TILING_DATA_FIELD_DEF(uint32_t, ocGroup);      // output channels accumulated together
  TILING_DATA_FIELD_DEF(uint32_t, ocGroupNum);   // ceil(outC / ocGroup)
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);   // batch * ocGroupNum * outH
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseBnReluConv, DenseBnReluConvTilingData)

ge::graphStatus DenseBnReluConvTilingFunc(gert::TilingContext* context);
} // namespace optiling
#endif
