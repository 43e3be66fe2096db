#ifndef RELU_FEATURE_MAP_ATTENTION_TILING_H
#define RELU_FEATURE_MAP_ATTENTION_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"
#include "tiling/tiling_api.h"

namespace optiling {
// q: [B, Lq, D], k: [B, Lk, D], v: [B, Lk, Dv] -> y: [B, Lq, Dv]
BEGIN_TILING_DATA_DEF(ReluFeatureMapAttentionTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, qLen);
  TILING_DATA_FIELD_DEF(uint32_t, kLen);
  TILING_DATA_FIELD_DEF(uint32_t, headDim);
  TILING_DATA_FIELD_DEF(uint32_t, valueDim);
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(uint32_t, mapTile);          // elements per UB tile in the feature-map stage
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, kvTiling);   // phi(K)^T @ V   (M=D,  N=Dv, K=Lk)
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, outTiling);  // phi(Q) @ KV    (M=Lq, N=Dv, K=D)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReluFeatureMapAttention, ReluFeatureMapAttentionTilingData)

ge::graphStatus ReluFeatureMapAttentionTilingFunc(gert::TilingContext *context);
}  // namespace optiling

#endif
