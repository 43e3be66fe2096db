#pragma once
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
// direct (valid, stride-1) 2D convolution followed by mish(mish(.))
BEGIN_TILING_DATA_DEF(ConvDoubleMishTiling)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, woutPad);     // wout rounded to 8 (fp32) / 16 (fp16) elements
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);     // output channels per work item
  TILING_DATA_FIELD_DEF(uint32_t, coBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, workItems);   // n * coBlocks * hout
  TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ConvDoubleMish, ConvDoubleMishTiling)

ge::graphStatus ConvDoubleMishTilingFunc(gert::TilingContext* ctx);
}
