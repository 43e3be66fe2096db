#ifndef FILL_WHERE_TRUE_TILING_H
#define FILL_WHERE_TRUE_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FillWhereTrueTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, elemCount);   // total elements of x / mask
  TILING_DATA_FIELD_DEF(uint64_t, blockElems);  // elements per core (last core may get fewer)
  TILING_DATA_FIELD_DEF(uint32_t, tileElems);   // elements per UB pass, multiple of 256
  TILING_DATA_FIELD_DEF(float, fillValue);      // value written where mask is true
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(FillWhereTrue, FillWhereTrueTilingData)

ge::graphStatus FillWhereTrueTilingFunc(gert::TilingContext *context);
}
#endif
