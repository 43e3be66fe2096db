#ifndef SPATIAL_BATCH_NORM_TRAIN_TILING_H
#define SPATIAL_BATCH_NORM_TRAIN_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SpatialBatchNormTrainTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);        // N
  TILING_DATA_FIELD_DEF(uint32_t, channels);     // C
  TILING_DATA_FIELD_DEF(uint32_t, spatial);      // product of trailing dims (H*W*...)
  TILING_DATA_FIELD_DEF(uint32_t, tileLen);      // elements moved per DMA
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);      // channels are dealt round-robin over cores
  TILING_DATA_FIELD_DEF(float, epsilon);
  TILING_DATA_FIELD_DEF(float, invCount);        // 1 / (N * spatial)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SpatialBatchNormTrain, SpatialBatchNormTrainTilingData)

ge::graphStatus SpatialBatchNormTrainTilingFunc(gert::TilingContext *context);
}
#endif
