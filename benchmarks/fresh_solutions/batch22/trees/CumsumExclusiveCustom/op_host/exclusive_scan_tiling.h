#ifndef EXCLUSIVE_SCAN_TILING_H
#define EXCLUSIVE_SCAN_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
// x folded to [outer, axis, inner]; key 0 when inner > 1, key 1 when the axis is innermost
BEGIN_TILING_DATA_DEF(ExclusiveScanTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, outer);
  TILING_DATA_FIELD_DEF(uint64_t, axis);
  TILING_DATA_FIELD_DEF(uint64_t, inner);
  TILING_DATA_FIELD_DEF(uint32_t, tile);       // key 0: inner elems per tile, key 1: axis chunk
  TILING_DATA_FIELD_DEF(uint32_t, tilesPerRow);
  TILING_DATA_FIELD_DEF(uint64_t, items);
  TILING_DATA_FIELD_DEF(uint32_t, cores);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ExclusiveScan, ExclusiveScanTilingData)

ge::graphStatus ExclusiveScanTilingFunc(gert::TilingContext *context);
}
#endif
