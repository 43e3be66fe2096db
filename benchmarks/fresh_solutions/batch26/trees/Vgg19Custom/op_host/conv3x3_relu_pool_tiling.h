#ifndef CONV3X3_RELU_POOL_TILING_H
#define CONV3X3_RELU_POOL_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv3x3ReluPoolTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);
    TILING_DATA_FIELD_DEF(uint32_t, cin);
    TILING_DATA_FIELD_DEF(uint32_t, cout);
    TILING_DATA_FIELD_DEF(uint32_t, height);
    TILING_DATA_FIELD_DEF(uint32_t, width);
    TILING_DATA_FIELD_DEF(uint32_t, withPool);        // fuse 2x2/2 max-pool after the ReLU
    TILING_DATA_FIELD_DEF(uint32_t, blockRows);       // conv output rows per GEMM block (even if pooling)
    TILING_DATA_FIELD_DEF(uint32_t, blocksPerImage);
    TILING_DATA_FIELD_DEF(uint32_t, rowPitch);        // UB row pitch (elements) in the epilogue
    TILING_DATA_FIELD_DEF(uint64_t, colSlice);        // im2col elements per worker
    TILING_DATA_FIELD_DEF(uint64_t, convSlice);       // raw conv block elements per worker (pool path)
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mmTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Conv3x3ReluPool, Conv3x3ReluPoolTilingData)
}
#endif
