#ifndef VALID_CONV_DUAL_MISH_TILING_H
#define VALID_CONV_DUAL_MISH_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ValidConvDualMishTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, n);
    TILING_DATA_FIELD_DEF(uint32_t, cin);
    TILING_DATA_FIELD_DEF(uint32_t, hin);
    TILING_DATA_FIELD_DEF(uint32_t, win);
    TILING_DATA_FIELD_DEF(uint32_t, cout);
    TILING_DATA_FIELD_DEF(uint32_t, kh);
    TILING_DATA_FIELD_DEF(uint32_t, kw);
    TILING_DATA_FIELD_DEF(uint32_t, hout);
    TILING_DATA_FIELD_DEF(uint32_t, wout);
    TILING_DATA_FIELD_DEF(uint32_t, rowsPerBlock);   // output rows per GEMM block
    TILING_DATA_FIELD_DEF(uint32_t, blocksPerImage);
    TILING_DATA_FIELD_DEF(uint32_t, epiTile);        // elements per tile in the Mish epilogue
    TILING_DATA_FIELD_DEF(uint64_t, colElemsPerWorker);
    TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ValidConvDualMish, ValidConvDualMishTilingData)
}
#endif
