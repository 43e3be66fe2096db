#ifndef VOLUMETRIC_CONV_TILING_H
#define VOLUMETRIC_CONV_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumetricConvTilingData)
  // input  [N, Ci, D, H, W], filter [Co, Ci, K, K, K], output [N, Co, Do, Ho, Wo]
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, ci);
  TILING_DATA_FIELD_DEF(uint32_t, co);
  TILING_DATA_FIELD_DEF(uint32_t, d);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, dOut);
  TILING_DATA_FIELD_DEF(uint32_t, hOut);
  TILING_DATA_FIELD_DEF(uint32_t, wOut);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  // blocking
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);      // output channels accumulated together
  TILING_DATA_FIELD_DEF(uint32_t, wBlock);       // output columns per accumulation step
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // (n, od, oh) output rows per core (ceil)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VolumetricConv, VolumetricConvTilingData)

ge::graphStatus VolumetricConvTilingFunc(gert::TilingContext *context);
}
#endif
