#ifndef CONV_POS_HARD_SWISH_TILING_H
#define CONV_POS_HARD_SWISH_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvPosHardSwishTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, lineLen);        // outW rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, chanTile);       // output channels computed per pass
  TILING_DATA_FIELD_DEF(uint32_t, rowsTotal);      // N * outH output rows
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsExtra);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvPosHardSwish, ConvPosHardSwishTilingData)
}  // namespace optiling
#endif
