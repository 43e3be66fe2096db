#ifndef UPCONV3D_BN_CENTER_TILING_H
#define UPCONV3D_BN_CENTER_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(UpConv3dBnCenterTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, id);
  TILING_DATA_FIELD_DEF(uint32_t, ih);
  TILING_DATA_FIELD_DEF(uint32_t, iw);
  TILING_DATA_FIELD_DEF(uint32_t, iwAlign);
  TILING_DATA_FIELD_DEF(uint32_t, od);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, owAlign);
  TILING_DATA_FIELD_DEF(uint32_t, ks);
  TILING_DATA_FIELD_DEF(uint32_t, k3Align);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, jobs);          // n * cout planes
  TILING_DATA_FIELD_DEF(uint32_t, jobsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, chunk);         // elements per pass-2 tile
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(UpConv3dBnCenter, UpConv3dBnCenterTilingData)
}  // namespace optiling
#endif
