#ifndef TRIPLET_DISTANCE_HINGE_TILING_H
#define TRIPLET_DISTANCE_HINGE_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TripletDistanceHingeTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);         // number of triplets B
  TILING_DATA_FIELD_DEF(uint32_t, dim);          // embedding length D
  TILING_DATA_FIELD_DEF(uint32_t, colTile);      // columns per DMA
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF(float, margin);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invRows);        // 1/B for mean reduction
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TripletDistanceHinge, TripletDistanceHingeTilingData)

ge::graphStatus TripletDistanceHingeTilingFunc(gert::TilingContext *context);
}
#endif
