#ifndef VOLUMETRIC_CONV_TILING_H
#define VOLUMETRIC_CONV_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumetricConvTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, dil);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);     // Cin * k^3
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerBlock);  // output (d,h) rows per column block
  TILING_DATA_FIELD_DEF(uint32_t, blocksPerSample);
  TILING_DATA_FIELD_DEF(uint32_t, lineLen);       // padded input line in UB
  TILING_DATA_FIELD_DEF(uint32_t, lineOff);       // aligned slot of input column 0
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(VolumetricConv, VolumetricConvTilingData)
}  // namespace optiling
#endif
