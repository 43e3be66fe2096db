#ifndef LOCATE_MIN_ALONG_AXIS_TILING_H
#define LOCATE_MIN_ALONG_AXIS_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
// input folded to [pre, len, post]; output [pre, post] int64 indices into `len`
BEGIN_TILING_DATA_DEF(LocateMinAlongAxisTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, pre);
  TILING_DATA_FIELD_DEF(uint64_t, len);
  TILING_DATA_FIELD_DEF(uint64_t, post);
  TILING_DATA_FIELD_DEF(uint32_t, tile);        // key 0: post-elements per tile; key 1: row chunk
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerPre); // key 0 only
  TILING_DATA_FIELD_DEF(uint64_t, taskTotal);   // total work items
  TILING_DATA_FIELD_DEF(uint32_t, coreUsed);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LocateMinAlongAxis, LocateMinAlongAxisTilingData)

ge::graphStatus LocateMinAlongAxisTiling(gert::TilingContext *ctx);
}
#endif
