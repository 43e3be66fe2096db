#ifndef BLOCKWISE_SOFTMAX_ATTENTION_TILING_H
#define BLOCKWISE_SOFTMAX_ATTENTION_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(BlockwiseSoftmaxAttentionTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batchHeads);   // B * heads
  TILING_DATA_FIELD_DEF(uint32_t, qLen);
  TILING_DATA_FIELD_DEF(uint32_t, kvLen);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, qBlock);       // query rows owned by one task
  TILING_DATA_FIELD_DEF(uint32_t, kvBlock);      // keys/values staged per step
  TILING_DATA_FIELD_DEF(uint32_t, qBlocksPerHead);
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(BlockwiseSoftmaxAttention, BlockwiseSoftmaxAttentionTiling)
}
#endif
