#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(WholeTensorL2NormalizeTiling)
  TILING_DATA_FIELD_DEF(uint64_t, total);        // elements in x
  TILING_DATA_FIELD_DEF(uint64_t, sliceLen);     // contiguous elements per core (multiple of 8)
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements per UB tile (multiple of 64)
  TILING_DATA_FIELD_DEF(uint32_t, sumWorkLen);   // ReduceSum scratch, in floats
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);    // number of partial sums to combine
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(WholeTensorL2NormalizeCustom, WholeTensorL2NormalizeTiling)
}
