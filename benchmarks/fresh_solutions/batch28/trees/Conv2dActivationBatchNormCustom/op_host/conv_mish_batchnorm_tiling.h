/**
 * Tiling data for ConvMishBatchNorm (conv2d -> x*tanh(softplus(x)) -> batch-stat BN).
 */
#ifndef CONV_MISH_BATCHNORM_TILING_H
#define CONV_MISH_BATCHNORM_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ConvMishBatchNormTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, batch);
    TILING_DATA_FIELD_DEF(uint32_t, cin);
    TILING_DATA_FIELD_DEF(uint32_t, height);
    TILING_DATA_FIELD_DEF(uint32_t, width);
    TILING_DATA_FIELD_DEF(uint32_t, cout);
    TILING_DATA_FIELD_DEF(uint32_t, coutAlign);     // cout rounded to 8
    TILING_DATA_FIELD_DEF(uint32_t, kh);
    TILING_DATA_FIELD_DEF(uint32_t, kw);
    TILING_DATA_FIELD_DEF(uint32_t, tapStride);     // kh*kw rounded to 8 (UB layout of a weight slice)
    TILING_DATA_FIELD_DEF(uint32_t, oh);
    TILING_DATA_FIELD_DEF(uint32_t, ow);
    TILING_DATA_FIELD_DEF(uint32_t, colTile);
    TILING_DATA_FIELD_DEF(uint32_t, colAlign);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
    TILING_DATA_FIELD_DEF(uint32_t, rowsTail);
    TILING_DATA_FIELD_DEF(uint32_t, usedCores);
    TILING_DATA_FIELD_DEF(uint32_t, normChunk);     // elements per DMA in the normalisation pass
    TILING_DATA_FIELD_DEF(float, invCount);         // 1 / (N * OH * OW)
    TILING_DATA_FIELD_DEF(float, epsilon);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ConvMishBatchNorm, ConvMishBatchNormTilingData)

ge::graphStatus ConvMishBatchNormTiling(gert::TilingContext *context);
}  // namespace optiling

#endif
