#ifndef COSINE_DISSIMILARITY_MEAN_TILING_H
#define COSINE_DISSIMILARITY_MEAN_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CosineDissimilarityMeanTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, numRows);
  TILING_DATA_FIELD_DEF(uint32_t, rowLen);
  TILING_DATA_FIELD_DEF(uint32_t, chunk);        // elements per copy along a row
  TILING_DATA_FIELD_DEF(uint32_t, baseRows);     // rows per core (floor)
  TILING_DATA_FIELD_DEF(uint32_t, extraRows);    // first extraRows cores take one more
  TILING_DATA_FIELD_DEF(float, epsSq);           // eps^2, clamps |x|^2 * |y|^2
  TILING_DATA_FIELD_DEF(float, scale);           // 1 / numRows
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(CosineDissimilarityMean, CosineDissimilarityMeanTilingData)

ge::graphStatus CosineDissimilarityMeanTiling(gert::TilingContext *context);
}
#endif
