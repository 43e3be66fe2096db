#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DenseUnitTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, c);          // input channels
  TILING_DATA_FIELD_DEF(uint32_t, g);          // new channels produced by the conv
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, k);          // square, odd kernel; "same" padding k/2
  TILING_DATA_FIELD_DEF(uint32_t, wAlign);     // padded row length in UB (elements)
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);// (n, oh) output rows per core
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(DenseUnitBnReluConv, DenseUnitTilingData)
}
