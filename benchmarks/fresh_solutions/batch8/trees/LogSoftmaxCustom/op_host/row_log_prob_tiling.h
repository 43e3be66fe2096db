#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowLogProbTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // product of all leading dims
  TILING_DATA_FIELD_DEF(uint32_t, cols);          // length of the normalised (last) dim
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // cores that take rowsPerCore + 1 rows
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, chunk);         // column chunk resident in UB
  TILING_DATA_FIELD_DEF(uint32_t, reduceWork);    // scratch elements for ReduceMax/ReduceSum over a chunk
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(RowLogProbCustom, RowLogProbTilingData)
}
