#ifndef INDEX_OF_MAX_TILING_H
#define INDEX_OF_MAX_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(IndexOfMaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);      // product of dims before `dim`
  TILING_DATA_FIELD_DEF(uint32_t, reduceLen);  // size of `dim`
  TILING_DATA_FIELD_DEF(uint32_t, inner);      // product of dims after `dim`
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);    // columns (column mode) or reduce chunk (row mode)
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerOuter);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IndexOfMax, IndexOfMaxTilingData)

ge::graphStatus IndexOfMaxTilingFunc(gert::TilingContext *context);
}
#endif
