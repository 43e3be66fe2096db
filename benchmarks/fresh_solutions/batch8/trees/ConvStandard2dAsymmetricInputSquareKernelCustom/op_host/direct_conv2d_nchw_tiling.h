#ifndef DIRECT_CONV2D_NCHW_TILING_H
#define DIRECT_CONV2D_NCHW_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DirectConv2dNchwTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);       // square kernel
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, tileW);       // output columns per work item (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, wTiles);      // ceil(outW / tileW)
  TILING_DATA_FIELD_DEF(uint32_t, tapStride);   // K*K rounded up to 8 (per-cout stride of a weight slice in UB)
  TILING_DATA_FIELD_DEF(uint32_t, totalItems);  // batch * outH * wTiles
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DirectConv2dNchwCustom, DirectConv2dNchwTilingData)
}
#endif
