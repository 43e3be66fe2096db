/**
 * Tiling data for ReduceMaxAlongAxis.
 *
 * The input is viewed as a 3-D tensor [outer, axisLen, inner] where axisLen is the
 * size of the reduced axis. Two kernel paths exist:
 *   tiling key 0 : inner > 1, reduction runs across rows (element-wise Max of rows)
 *   tiling key 1 : inner == 1, reduction runs along the contiguous last axis
 */
#ifndef REDUCE_MAX_ALONG_AXIS_TILING_H
#define REDUCE_MAX_ALONG_AXIS_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReduceMaxAlongAxisTilingData)
  TILING_DATA_FIELD_DEF(uint64_t, outerSize);     // product of dims before the axis
  TILING_DATA_FIELD_DEF(uint64_t, axisLen);       // size of the reduced axis
  TILING_DATA_FIELD_DEF(uint64_t, innerSize);     // product of dims after the axis
  TILING_DATA_FIELD_DEF(uint32_t, innerTile);     // elements of inner handled per UB tile (key 0)
  TILING_DATA_FIELD_DEF(uint32_t, innerTileNum);  // ceil(innerSize / innerTile)
  TILING_DATA_FIELD_DEF(uint32_t, axisTile);      // elements of the axis per UB chunk (key 1)
  TILING_DATA_FIELD_DEF(uint64_t, unitsPerCore);  // work units for the "big" cores
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // cores that take unitsPerCore, others take one less
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReduceMaxAlongAxis, ReduceMaxAlongAxisTilingData)

ge::graphStatus ReduceMaxAlongAxisTilingFunc(gert::TilingContext *context);
}  // namespace optiling

#endif  // REDUCE_MAX_ALONG_AXIS_TILING_H
