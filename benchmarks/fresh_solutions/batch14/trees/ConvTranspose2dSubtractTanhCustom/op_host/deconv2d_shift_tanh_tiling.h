#ifndef DECONV2D_SHIFT_TANH_TILING_H
#define DECONV2D_SHIFT_TANH_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv2dShiftTanhTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cIn);
  TILING_DATA_FIELD_DEF(uint32_t, cOut);
  TILING_DATA_FIELD_DEF(uint32_t, hIn);
  TILING_DATA_FIELD_DEF(uint32_t, wIn);
  TILING_DATA_FIELD_DEF(uint32_t, wInPad);
  TILING_DATA_FIELD_DEF(uint32_t, hOut);
  TILING_DATA_FIELD_DEF(uint32_t, wOut);
  TILING_DATA_FIELD_DEF(uint32_t, wOutPad);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, padding);
  TILING_DATA_FIELD_DEF(uint32_t, chanTile);
  TILING_DATA_FIELD_DEF(uint32_t, chanTiles);
  TILING_DATA_FIELD_DEF(uint32_t, workItems);
  TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv2dShiftTanh, Deconv2dShiftTanhTilingData)
}  // namespace optiling
#endif
