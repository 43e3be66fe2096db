#ifndef QUERY_CONTEXT_ATTENTION_TILING_H
#define QUERY_CONTEXT_ATTENTION_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(QueryContextAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, qLen);        // query sequence length
  TILING_DATA_FIELD_DEF(uint32_t, kvLen);       // context sequence length
  TILING_DATA_FIELD_DEF(uint32_t, qDim);        // query feature size
  TILING_DATA_FIELD_DEF(uint32_t, ctxDim);      // context feature size
  TILING_DATA_FIELD_DEF(uint32_t, embed);       // attention width E
  TILING_DATA_FIELD_DEF(uint32_t, heads);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, weightRowsPerLoad); // rows of a weight matrix staged in UB at once
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
  TILING_DATA_FIELD_DEF(float, softmaxScale);   // 1/sqrt(headDim)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(QueryContextAttention, QueryContextAttentionTilingData)

ge::graphStatus QueryContextAttentionTilingFunc(gert::TilingContext *context);
}
#endif
