#ifndef TRANSPOSED_CONV2D_SATURATE_TILING_H
#define TRANSPOSED_CONV2D_SATURATE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TransposedConv2dSaturateTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inC);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outC);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, kH);
  TILING_DATA_FIELD_DEF(uint32_t, kW);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, phaseLen);     // ceil(outW / stride): columns per phase
  TILING_DATA_FIELD_DEF(uint32_t, phaseAlign);   // phaseLen rounded to 8
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, leadPad);      // zero lead-in before the staged input row
  TILING_DATA_FIELD_DEF(uint32_t, stageLen);     // leadPad + inW + tail zeros, aligned
  TILING_DATA_FIELD_DEF(uint32_t, tapStride);    // kH*kW rounded to 8 (UB weight row pitch)
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);    // batch * outC * outH
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TransposedConv2dSaturate, TransposedConv2dSaturateTilingData)
}  // namespace optiling
#endif
