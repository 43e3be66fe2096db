#ifndef INDEX_SCATTER_WRITE_TILING_H
#define INDEX_SCATTER_WRITE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(IndexScatterWriteTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);        // product of dims before `dim`
  TILING_DATA_FIELD_DEF(uint32_t, axisLen);      // self.shape[dim]
  TILING_DATA_FIELD_DEF(uint32_t, inner);        // product of dims after `dim`
  TILING_DATA_FIELD_DEF(uint32_t, idxAxisLen);   // index.shape[dim]
  TILING_DATA_FIELD_DEF(uint32_t, windowLen);    // slab elements resident in UB at a time
  TILING_DATA_FIELD_DEF(uint32_t, idxChunk);     // index/src elements streamed per step
  TILING_DATA_FIELD_DEF(uint32_t, outerPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(IndexScatterWrite, IndexScatterWriteTilingData)
}  // namespace optiling
#endif
