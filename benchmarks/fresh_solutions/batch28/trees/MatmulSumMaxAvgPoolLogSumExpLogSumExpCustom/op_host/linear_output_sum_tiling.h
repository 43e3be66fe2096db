/**
 * Tiling data for LinearOutputSum:
 *   y[b, 0] = Σ_j (x[b, :] · weight[j, :] + bias[j])
 * followed by the (shape-preserving) max / mean / log-sum-exp reductions over
 * the size-1 axis.
 */
#ifndef LINEAR_OUTPUT_SUM_TILING_H
#define LINEAR_OUTPUT_SUM_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearOutputSumTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);
    TILING_DATA_FIELD_DEF(uint32_t, inFeatures);
    TILING_DATA_FIELD_DEF(uint32_t, outFeatures);
    TILING_DATA_FIELD_DEF(uint32_t, inAlign);          // inFeatures rounded to 8
    // phase 1: column sums of weight
    TILING_DATA_FIELD_DEF(uint32_t, colsPerCore);      // multiple of 8
    TILING_DATA_FIELD_DEF(uint32_t, colChunk);         // multiple of 8
    TILING_DATA_FIELD_DEF(uint32_t, rowBlock);         // weight rows per DMA
    TILING_DATA_FIELD_DEF(uint32_t, biasChunk);
    // phase 2: dot products
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, rowsTail);
    TILING_DATA_FIELD_DEF(uint32_t, kChunk);           // multiple of 8
    TILING_DATA_FIELD_DEF(uint32_t, resultCap);        // UB slots for per-core results (multiple of 8)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearOutputSum, LinearOutputSumTilingData)

ge::graphStatus LinearOutputSumTiling(gert::TilingContext *context);
}  // namespace optiling

#endif
