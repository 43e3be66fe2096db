#ifndef UPCONV3D_POOL_AFFINE_TILING_H
#define UPCONV3D_POOL_AFFINE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Upconv3dPoolAffineTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, d);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, pool);
  TILING_DATA_FIELD_DEF(uint32_t, pd);          // pooled output depth / height / width
  TILING_DATA_FIELD_DEF(uint32_t, ph);
  TILING_DATA_FIELD_DEF(uint32_t, pw);
  TILING_DATA_FIELD_DEF(uint32_t, slabDepth);   // input depth slices feeding one pooled slice
  TILING_DATA_FIELD_DEF(uint32_t, planeStride); // H*W rounded to 32B in UB
  TILING_DATA_FIELD_DEF(uint32_t, outPlaneAlign);
  TILING_DATA_FIELD_DEF(float, mulFactor);      // scale2 * scale1 / pool^3
  TILING_DATA_FIELD_DEF(float, scale1);
  TILING_DATA_FIELD_DEF(float, scale2);
  TILING_DATA_FIELD_DEF(uint32_t, units);       // batch * cout * pd
  TILING_DATA_FIELD_DEF(uint32_t, unitsPerCore);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Upconv3dPoolAffine, Upconv3dPoolAffineTilingData)
}
#endif
