#ifndef GATHER_ALONG_AXIS_TILING_H
#define GATHER_ALONG_AXIS_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
// x viewed as [outer, srcAxis, inner], indices/y viewed as [outer, dstAxis, inner]
BEGIN_TILING_DATA_DEF(GatherAlongAxisTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);
  TILING_DATA_FIELD_DEF(uint32_t, srcAxis);
  TILING_DATA_FIELD_DEF(uint32_t, dstAxis);
  TILING_DATA_FIELD_DEF(uint32_t, inner);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // rows of `outer` per core
  TILING_DATA_FIELD_DEF(uint32_t, tailRows);      // first tailRows cores take one extra row
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // indices gathered per UB round
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GatherAlongAxis, GatherAlongAxisTilingData)

ge::graphStatus GatherAlongAxisTilingFunc(gert::TilingContext *context);
}
#endif
