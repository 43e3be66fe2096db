#ifndef CONV3D_SOFTMAX_CASCADE_POOL_TILING_H
#define CONV3D_SOFTMAX_CASCADE_POOL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv3dSoftmaxCascadePoolTiling)
  // input / filter geometry
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kd);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  // the two cascaded non-overlapping pools collapse into one window of `win`
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  // work split
  TILING_DATA_FIELD_DEF(uint32_t, tileOw);       // pooled columns per work item
  TILING_DATA_FIELD_DEF(uint32_t, owTiles);
  TILING_DATA_FIELD_DEF(uint32_t, totalItems);   // batch * outD * outH * owTiles
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv3dSoftmaxCascadePool, Conv3dSoftmaxCascadePoolTiling)
}
#endif
