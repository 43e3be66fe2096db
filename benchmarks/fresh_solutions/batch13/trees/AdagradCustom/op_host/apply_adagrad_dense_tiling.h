#ifndef APPLY_ADAGRAD_DENSE_TILING_H
#define APPLY_ADAGRAD_DENSE_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ApplyAdagradDenseTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, totalNum);      // elements in var / grad / accum
  TILING_DATA_FIELD_DEF(uint64_t, perCoreNum);    // elements for cores [0, bigCores)
  TILING_DATA_FIELD_DEF(uint32_t, bigCores);      // cores that take perCoreNum; the rest take perCoreNum - align
  TILING_DATA_FIELD_DEF(uint32_t, alignNum);      // elements per 32B block of the io dtype
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);       // elements per UB tile
  TILING_DATA_FIELD_DEF(float, lr);
  TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ApplyAdagradDense, ApplyAdagradDenseTilingData)

ge::graphStatus ApplyAdagradDenseTiling(gert::TilingContext *context);
}
#endif
