#pragma once
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvBnResidualReluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, owAlign);
  TILING_DATA_FIELD_DEF(uint32_t, rowBufLen);     // 8 + w + 8 rounded, zero guarded input row
  TILING_DATA_FIELD_DEF(uint32_t, colCols);       // oh*ow (im2col columns per sample)
  TILING_DATA_FIELD_DEF(uint32_t, colBlock);      // columns per matmul work unit
  TILING_DATA_FIELD_DEF(uint32_t, colBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, workers);
  TILING_DATA_FIELD_DEF(uint32_t, hasResidual);
  TILING_DATA_FIELD_DEF(uint32_t, withRelu);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);  // [Cout, Cin*K*K] x [Cin*K*K, colBlock]
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvBnResidualRelu, ConvBnResidualReluTilingData)
}
