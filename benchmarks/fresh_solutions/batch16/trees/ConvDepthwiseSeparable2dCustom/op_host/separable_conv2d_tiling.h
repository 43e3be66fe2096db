/* Tiling data of SeparableConv2d (depthwise KxK followed by pointwise 1x1). */
#ifndef SEPARABLE_CONV2D_TILING_H
#define SEPARABLE_CONV2D_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SeparableConv2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, rowOffset);   // aligned left margin of the padded row buffer
  TILING_DATA_FIELD_DEF(uint32_t, rowBufLen);   // padded row buffer length (elements)
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, colBlock);    // pointwise GEMM: output pixels per unit
  TILING_DATA_FIELD_DEF(uint32_t, colBlockNum); // ceil(outH*outW / colBlock)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, pwTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SeparableConv2d, SeparableConv2dTilingData)
}  // namespace optiling
#endif
