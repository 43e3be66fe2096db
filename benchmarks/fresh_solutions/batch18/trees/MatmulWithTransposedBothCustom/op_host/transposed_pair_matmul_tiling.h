#ifndef TRANSPOSED_PAIR_MATMUL_TILING_H
#define TRANSPOSED_PAIR_MATMUL_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
// C[M, N] = A^T * B^T with A stored [K, M] and B stored [N, K]
BEGIN_TILING_DATA_DEF(TransposedPairMatmulTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, usedCores);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TransposedPairMatmul, TransposedPairMatmulTilingData)

ge::graphStatus TransposedPairMatmulTilingFunc(gert::TilingContext *context);
}
#endif
