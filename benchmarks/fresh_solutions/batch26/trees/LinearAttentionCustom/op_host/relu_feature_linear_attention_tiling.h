#ifndef RELU_FEATURE_LINEAR_ATTENTION_TILING_H
#define RELU_FEATURE_LINEAR_ATTENTION_TILING_H

#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ReluFeatureLinearAttentionTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);
    TILING_DATA_FIELD_DEF(uint32_t, seqLen);
    TILING_DATA_FIELD_DEF(uint32_t, featDim);     // D: width of q / k
    TILING_DATA_FIELD_DEF(uint32_t, valDim);      // Dv: width of v / out
    TILING_DATA_FIELD_DEF(float, eps);
    TILING_DATA_FIELD_DEF(uint32_t, mapTile);     // elements per UB tile in the feature-map pass
    // block decomposition of the two GEMMs (each block = one IterateAll)
    TILING_DATA_FIELD_DEF(uint32_t, kvBlockM);    // rows of KV (over D)
    TILING_DATA_FIELD_DEF(uint32_t, kvBlockN);    // cols of KV (over Dv)
    TILING_DATA_FIELD_DEF(uint32_t, outBlockM);   // rows of out (over S)
    TILING_DATA_FIELD_DEF(uint32_t, outBlockN);   // cols of out (over Dv)
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, kvTiling);
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, outTiling);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ReluFeatureLinearAttention, ReluFeatureLinearAttentionTilingData)
} // namespace optiling

#endif
