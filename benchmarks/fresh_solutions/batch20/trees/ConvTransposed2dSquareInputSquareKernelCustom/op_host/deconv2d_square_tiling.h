#ifndef DECONV2D_SQUARE_TILING_H
#define DECONV2D_SQUARE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv2dSquareTiling)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, withBias);
  TILING_DATA_FIELD_DEF(uint32_t, ocPerUnit);     // output channels handled together
  TILING_DATA_FIELD_DEF(uint32_t, ocUnitsPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, stripRows);     // output rows per unit
  TILING_DATA_FIELD_DEF(uint32_t, stripCount);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv2dSquare, Deconv2dSquareTiling)
}
#endif
