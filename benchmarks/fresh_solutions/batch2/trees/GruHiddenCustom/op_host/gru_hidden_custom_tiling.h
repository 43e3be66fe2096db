#include "register/tilingdata_base.h"

namespace optiling {
// GRU cell gate update. gi = x W_ih^T + b_ih and gh = h W_hh^T + b_hh are [B, 3H];
// the kernel does the element-wise part. A work unit is one (batch row, hidden chunk).
BEGIN_TILING_DATA_DEF(GruHiddenCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);      // elements of H handled per unit
  TILING_DATA_FIELD_DEF(uint32_t, chunksPerRow);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GruHiddenCustom, GruHiddenCustomTilingData)
}
