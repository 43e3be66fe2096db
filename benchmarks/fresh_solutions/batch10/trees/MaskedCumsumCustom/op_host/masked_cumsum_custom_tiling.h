#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MaskedCumsumCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);      // product of dims before `dim`
  TILING_DATA_FIELD_DEF(uint32_t, scanLen);    // size of `dim` (must be the innermost dim)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, remRows);
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);    // elements per tile, multiple of 32
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MaskedCumsumCustom, MaskedCumsumCustomTilingData)
}
