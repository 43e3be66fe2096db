#ifndef AXIS_GATHER_TILING_H
#define AXIS_GATHER_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AxisGatherTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outerNum);
  TILING_DATA_FIELD_DEF(uint32_t, srcAxis);      // self.shape[dim]
  TILING_DATA_FIELD_DEF(uint32_t, innerNum);
  TILING_DATA_FIELD_DEF(uint32_t, dstAxis);      // index.shape[dim]
  TILING_DATA_FIELD_DEF(uint32_t, srcAxisAlign); // srcAxis rounded up to 32 bytes
  TILING_DATA_FIELD_DEF(uint32_t, chunkLen);     // output elements produced per step
  TILING_DATA_FIELD_DEF(uint32_t, vectorPath);   // 1: whole source row resident in UB + vector Gather
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AxisGather, AxisGatherTilingData)
}  // namespace optiling
#endif
