#ifndef DECONV_MISH_SHIFT_CLAMP_SCALE_TILING_H
#define DECONV_MISH_SHIFT_CLAMP_SCALE_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DeconvMishShiftClampScaleTilingData)
  // geometry
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cIn);
  TILING_DATA_FIELD_DEF(uint32_t, hIn);
  TILING_DATA_FIELD_DEF(uint32_t, wIn);
  TILING_DATA_FIELD_DEF(uint32_t, cOut);
  TILING_DATA_FIELD_DEF(uint32_t, hOut);
  TILING_DATA_FIELD_DEF(uint32_t, wOut);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  // UB layout
  TILING_DATA_FIELD_DEF(uint32_t, phaseLen);
  TILING_DATA_FIELD_DEF(uint32_t, rowAlign);
  TILING_DATA_FIELD_DEF(uint32_t, coBlock);      // output channels accumulated together
  TILING_DATA_FIELD_DEF(uint32_t, coBlockNum);
  // split across cores
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, unitsTail);
  // epilogue
  TILING_DATA_FIELD_DEF(float, addValue);
  TILING_DATA_FIELD_DEF(float, clipLo);
  TILING_DATA_FIELD_DEF(float, clipHi);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DeconvMishShiftClampScale, DeconvMishShiftClampScaleTilingData)

ge::graphStatus DeconvMishShiftClampScaleTiling(gert::TilingContext *context);
} // namespace optiling
#endif
