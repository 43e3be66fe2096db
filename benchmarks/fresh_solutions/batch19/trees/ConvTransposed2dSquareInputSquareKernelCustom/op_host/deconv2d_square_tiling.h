#ifndef DECONV2D_SQUARE_TILING_H
#define DECONV2D_SQUARE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv2dSquareTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, phaseLen);      // ceil(outW / stride), columns per phase
  TILING_DATA_FIELD_DEF(uint32_t, phasePitch);    // phaseLen rounded to 8
  TILING_DATA_FIELD_DEF(uint32_t, rowPitch);      // stride * phasePitch, one output row in UB
  TILING_DATA_FIELD_DEF(uint32_t, coGroup);       // output channels accumulated together
  TILING_DATA_FIELD_DEF(uint32_t, coGroups);
  TILING_DATA_FIELD_DEF(uint32_t, itemsPerCore);  // items = batch * outH * coGroups
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv2dSquare, Deconv2dSquareTilingData)
}
#endif
