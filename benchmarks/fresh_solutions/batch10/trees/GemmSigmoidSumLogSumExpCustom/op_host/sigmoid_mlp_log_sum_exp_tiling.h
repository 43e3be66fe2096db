#ifndef SIGMOID_MLP_LOG_SUM_EXP_TILING_H
#define SIGMOID_MLP_LOG_SUM_EXP_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SigmoidMlpLseTilingData)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, hiddenMm);  // x (M,K) @ w1^T -> (M,Hd)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, outputMm);  // h (M,Hd) @ w2^T -> (M,N)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerBlock);        // row band owned by one vector block (both GEMMs)
  TILING_DATA_FIELD_DEF(uint32_t, usedBlocks);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(SigmoidMlpLogSumExp, SigmoidMlpLseTilingData)
}  // namespace optiling
#endif
