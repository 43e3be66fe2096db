/**
 * Tiling data for TripletHingeDistanceLoss.
 */
#ifndef TRIPLET_HINGE_DISTANCE_LOSS_TILING_H
#define TRIPLET_HINGE_DISTANCE_LOSS_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TripletHingeDistanceLossTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);          // number of triplets (batch)
  TILING_DATA_FIELD_DEF(uint32_t, featLen);       // embedding length (product of trailing dims)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);   // rows given to every core but the tail ones
  TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);    // first bigCoreNum cores take rowsPerCore + 1 rows
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);       // elements processed per UB round trip
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);       // ceil(featLen / tileLen)
  TILING_DATA_FIELD_DEF(uint32_t, lastTileLen);   // length of the final tile of a row
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF(float, margin);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invRows);          // 1/rows for the mean reduction
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TripletHingeDistanceLoss, TripletHingeDistanceLossTilingData)

ge::graphStatus TripletHingeDistanceLossTilingFunc(gert::TilingContext *context);
}  // namespace optiling
#endif
