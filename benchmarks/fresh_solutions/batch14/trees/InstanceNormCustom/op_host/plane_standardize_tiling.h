#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(PlaneStandardizeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planeCount);   // N * C
  TILING_DATA_FIELD_DEF(uint32_t, planeSize);    // H * W (product of trailing dims)
  TILING_DATA_FIELD_DEF(uint32_t, chunk);        // elements streamed per step
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, extraPlanes);  // first cores get one more plane
  TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(PlaneStandardize, PlaneStandardizeTilingData)

ge::graphStatus PlaneStandardizeTilingFunc(gert::TilingContext *ctx);
} // namespace optiling
