#ifndef UPCONV3D_RELU_GN_TILING_H
#define UPCONV3D_RELU_GN_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Upconv3dReluGnTiling)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cIn);
  TILING_DATA_FIELD_DEF(uint32_t, cOut);
  TILING_DATA_FIELD_DEF(uint32_t, dIn);
  TILING_DATA_FIELD_DEF(uint32_t, hIn);
  TILING_DATA_FIELD_DEF(uint32_t, wIn);
  TILING_DATA_FIELD_DEF(uint32_t, k);
  TILING_DATA_FIELD_DEF(uint32_t, dOut);
  TILING_DATA_FIELD_DEF(uint32_t, hOut);
  TILING_DATA_FIELD_DEF(uint32_t, wOut);
  TILING_DATA_FIELD_DEF(uint32_t, rowPitch);     // wOut rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, chPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, normChunk);    // elements per tile in the normalisation pass
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Upconv3dReluGn, Upconv3dReluGnTiling)
}
#endif
