#ifndef LINEAR_CEILING_OFFSET_TILING_H
#define LINEAR_CEILING_OFFSET_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(LinearCeilingOffsetTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outCols);
  TILING_DATA_FIELD_DEF(uint32_t, vecLen);      // elements per vector step of the epilogue
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(LinearCeilingOffset, LinearCeilingOffsetTilingData)
}  // namespace optiling

#endif  // LINEAR_CEILING_OFFSET_TILING_H
