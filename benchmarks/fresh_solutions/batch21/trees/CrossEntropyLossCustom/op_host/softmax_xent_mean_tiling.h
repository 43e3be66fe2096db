#ifndef SOFTMAX_XENT_MEAN_TILING_H
#define SOFTMAX_XENT_MEAN_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftmaxXentMeanTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, classes);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsTail);
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF(uint32_t, chunk);        // classes processed per UB pass
  TILING_DATA_FIELD_DEF(int64_t, ignoreIndex);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SoftmaxXentMean, SoftmaxXentMeanTilingData)

ge::graphStatus SoftmaxXentMeanTilingFunc(gert::TilingContext *context);
}
#endif
