#ifndef SPATIAL_BATCH_NORM_TRAIN_TILING_H
#define SPATIAL_BATCH_NORM_TRAIN_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SpatialBatchNormTrainTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // N
  TILING_DATA_FIELD_DEF(uint32_t, channels);     // C
  TILING_DATA_FIELD_DEF(uint64_t, spatial);      // product of trailing dims (H*W...)
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements per UB tile along the spatial dim
  TILING_DATA_FIELD_DEF(uint32_t, chPerCore);    // channels for the first `fatCores` cores
  TILING_DATA_FIELD_DEF(uint32_t, fatCores);
  TILING_DATA_FIELD_DEF(uint32_t, statCap);      // stat staging capacity (floats, 8-aligned)
  TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SpatialBatchNormTrain, SpatialBatchNormTrainTilingData)

ge::graphStatus SpatialBatchNormTrainTilingFunc(gert::TilingContext *context);
}  // namespace optiling
#endif
