#ifndef ARG_MAX_ALONG_AXIS_TILING_H
#define ARG_MAX_ALONG_AXIS_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
// input viewed as (outer, reduce, inner)
BEGIN_TILING_DATA_DEF(ArgMaxAlongAxisTiling)
  TILING_DATA_FIELD_DEF(uint64_t, outer);
  TILING_DATA_FIELD_DEF(uint32_t, reduce);
  TILING_DATA_FIELD_DEF(uint32_t, inner);
  TILING_DATA_FIELD_DEF(uint32_t, colTile);      // inner>1: columns per tile (multiple of 128)
  TILING_DATA_FIELD_DEF(uint32_t, colTiles);     // ceil(inner / colTile)
  TILING_DATA_FIELD_DEF(uint64_t, unitsPerCore); // inner>1: (outer, colTile) units; inner==1: rows
  TILING_DATA_FIELD_DEF(uint32_t, redTile);      // inner==1: elements of one row per ReduceMax pass
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ArgMaxAlongAxis, ArgMaxAlongAxisTiling)

ge::graphStatus ArgMaxAlongAxisTilingFunc(gert::TilingContext *context);
}
#endif
