#ifndef SHIFTED_WINDOW_TOKEN_MIX_TILING_H
#define SHIFTED_WINDOW_TOKEN_MIX_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ShiftedWindowTokenMixTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, imgH);
  TILING_DATA_FIELD_DEF(uint32_t, imgW);
  TILING_DATA_FIELD_DEF(uint32_t, channels);
  TILING_DATA_FIELD_DEF(uint32_t, heads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, win);           // effective window edge
  TILING_DATA_FIELD_DEF(uint32_t, padLead);       // top/left zero rows added by the shift (0 if unshifted)
  TILING_DATA_FIELD_DEF(uint32_t, winsH);
  TILING_DATA_FIELD_DEF(uint32_t, winsW);
  TILING_DATA_FIELD_DEF(uint32_t, totalWins);
  TILING_DATA_FIELD_DEF(uint32_t, winsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, headsPerPass);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ShiftedWindowTokenMix, ShiftedWindowTokenMixTilingData)
}  // namespace optiling
#endif
