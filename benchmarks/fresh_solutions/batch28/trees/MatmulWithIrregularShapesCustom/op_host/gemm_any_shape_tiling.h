/**
 * Tiling data for GemmAnyShape: C[M, N] = A[M, K] * B[K, N] for arbitrary
 * (non-aligned) M, K, N.
 */
#ifndef GEMM_ANY_SHAPE_TILING_H
#define GEMM_ANY_SHAPE_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GemmAnyShapeTilingData)
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
    TILING_DATA_FIELD_DEF(uint32_t, blocksAlongM);   // ceil(M / singleCoreM)
    TILING_DATA_FIELD_DEF(uint32_t, blocksAlongN);   // ceil(N / singleCoreN)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GemmAnyShape, GemmAnyShapeTilingData)

ge::graphStatus GemmAnyShapeTiling(gert::TilingContext *context);
}  // namespace optiling

#endif
