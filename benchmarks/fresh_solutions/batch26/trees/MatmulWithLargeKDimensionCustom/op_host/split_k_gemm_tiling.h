#ifndef SPLIT_K_GEMM_TILING_H
#define SPLIT_K_GEMM_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SplitKGemmTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, m);
    TILING_DATA_FIELD_DEF(uint32_t, n);
    TILING_DATA_FIELD_DEF(uint32_t, k);
    TILING_DATA_FIELD_DEF(uint32_t, kSplits);       // number of K partitions (= vector cores used)
    TILING_DATA_FIELD_DEF(uint32_t, kPerSplit);     // K extent of one partition (last may be shorter)
    TILING_DATA_FIELD_DEF(uint32_t, reducePerCore); // output elements each core reduces
    TILING_DATA_FIELD_DEF(uint32_t, reduceTile);    // UB tile of the reduction
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cube);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SplitKGemm, SplitKGemmTilingData)

ge::graphStatus SplitKGemmTilingFunc(gert::TilingContext *context);
}
#endif
