#ifndef DECONV3D_ACT_SCALE_POOL_TILING_H
#define DECONV3D_ACT_SCALE_POOL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv3dActScalePoolTiling)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, din);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, convD);        // transposed-conv output extent
  TILING_DATA_FIELD_DEF(uint32_t, convH);
  TILING_DATA_FIELD_DEF(uint32_t, convW);
  TILING_DATA_FIELD_DEF(uint32_t, poolD);        // pooled output extent (floor)
  TILING_DATA_FIELD_DEF(uint32_t, poolH);
  TILING_DATA_FIELD_DEF(uint32_t, poolW);
  TILING_DATA_FIELD_DEF(uint32_t, kd);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, sd);
  TILING_DATA_FIELD_DEF(uint32_t, sh);
  TILING_DATA_FIELD_DEF(uint32_t, sw);
  TILING_DATA_FIELD_DEF(uint32_t, pd);
  TILING_DATA_FIELD_DEF(uint32_t, ph);
  TILING_DATA_FIELD_DEF(uint32_t, pw);
  TILING_DATA_FIELD_DEF(uint32_t, pool);         // cubic window == stride
  TILING_DATA_FIELD_DEF(float, slope);           // leaky-relu negative slope
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  TILING_DATA_FIELD_DEF(uint32_t, coTile);
  TILING_DATA_FIELD_DEF(uint32_t, coBlocks);
  TILING_DATA_FIELD_DEF(uint32_t, rowPitch);     // fp32 pitch of one conv row in UB (x16)
  TILING_DATA_FIELD_DEF(uint32_t, poolPitch);    // pitch of one pooled row in UB (x16)
  TILING_DATA_FIELD_DEF(uint32_t, inPitch);      // pitch of the staged input row (+ zero slot)
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);   // N * poolD * poolH * coBlocks
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv3dActScalePool, Deconv3dActScalePoolTiling)
}  // namespace optiling
#endif
