#ifndef DENSE_MAT_VEC_TILING_H
#define DENSE_MAT_VEC_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseMatVecTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // M
  TILING_DATA_FIELD_DEF(uint64_t, cols);          // K (can be very long)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowGroup);      // rows sharing one vector chunk
  TILING_DATA_FIELD_DEF(uint32_t, chunk);         // K elements per UB pass
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(DenseMatVec, DenseMatVecTilingData)

ge::graphStatus DenseMatVecTilingFunc(gert::TilingContext* context);
}
#endif
