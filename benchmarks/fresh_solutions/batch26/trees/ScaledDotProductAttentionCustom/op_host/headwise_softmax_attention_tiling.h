#ifndef HEADWISE_SOFTMAX_ATTENTION_TILING_H
#define HEADWISE_SOFTMAX_ATTENTION_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(HeadwiseSoftmaxAttentionTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, headCount);     // batch * heads
    TILING_DATA_FIELD_DEF(uint32_t, qLen);          // Sq
    TILING_DATA_FIELD_DEF(uint32_t, kvLen);         // Sk
    TILING_DATA_FIELD_DEF(uint32_t, headDim);       // D of query/key
    TILING_DATA_FIELD_DEF(uint32_t, valueDim);      // D of value
    TILING_DATA_FIELD_DEF(uint32_t, headsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, usedCores);
    TILING_DATA_FIELD_DEF(uint32_t, softmaxRows);   // rows per softmax UB pass
    TILING_DATA_FIELD_DEF(float, scale);
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qkTiling);   // S = Q * K^T
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, pvTiling);   // O = P * V
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(HeadwiseSoftmaxAttention, HeadwiseSoftmaxAttentionTilingData)

ge::graphStatus HeadwiseSoftmaxAttentionTilingFunc(gert::TilingContext *context);
} // namespace optiling
#endif
