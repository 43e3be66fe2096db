#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaxPooling1dCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // batch * channels
  TILING_DATA_FIELD_DEF(uint32_t, inLen);
  TILING_DATA_FIELD_DEF(uint32_t, outLen);
  TILING_DATA_FIELD_DEF(uint32_t, outLenAlign);   // outLen rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, kernelSize);
  TILING_DATA_FIELD_DEF(uint32_t, padding);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsLeft);      // first rowsLeft cores get one extra row
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaxPooling1dCustom, MaxPooling1dCustomTilingData)
}
