/**
 * Tiling data for DenseConv3d (direct 3-D convolution on the vector cores).
 */
#ifndef DENSE_CONV3D_TILING_H
#define DENSE_CONV3D_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseConv3dTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, n);
    TILING_DATA_FIELD_DEF(uint32_t, ci);
    TILING_DATA_FIELD_DEF(uint32_t, d);
    TILING_DATA_FIELD_DEF(uint32_t, h);
    TILING_DATA_FIELD_DEF(uint32_t, w);
    TILING_DATA_FIELD_DEF(uint32_t, co);
    TILING_DATA_FIELD_DEF(uint32_t, kd);
    TILING_DATA_FIELD_DEF(uint32_t, kh);
    TILING_DATA_FIELD_DEF(uint32_t, kw);
    TILING_DATA_FIELD_DEF(uint32_t, od);
    TILING_DATA_FIELD_DEF(uint32_t, oh);
    TILING_DATA_FIELD_DEF(uint32_t, ow);
    TILING_DATA_FIELD_DEF(int32_t, sd);
    TILING_DATA_FIELD_DEF(int32_t, sh);
    TILING_DATA_FIELD_DEF(int32_t, sw);
    TILING_DATA_FIELD_DEF(int32_t, pd);
    TILING_DATA_FIELD_DEF(int32_t, ph);
    TILING_DATA_FIELD_DEF(int32_t, pw);
    TILING_DATA_FIELD_DEF(int32_t, dd);
    TILING_DATA_FIELD_DEF(int32_t, dh);
    TILING_DATA_FIELD_DEF(int32_t, dw);
    TILING_DATA_FIELD_DEF(uint32_t, hasBias);
    TILING_DATA_FIELD_DEF(uint32_t, tapsAlign);    // kd*kh*kw rounded to 8
    TILING_DATA_FIELD_DEF(uint32_t, colTile);      // multiple of 8
    TILING_DATA_FIELD_DEF(uint32_t, spanCap);      // input row elements buffered per tile (>= colTile)
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);  // rows = n * od * oh
    TILING_DATA_FIELD_DEF(uint32_t, rowsTail);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DenseConv3d, DenseConv3dTilingData)

ge::graphStatus DenseConv3dTiling(gert::TilingContext *context);
}  // namespace optiling

#endif
