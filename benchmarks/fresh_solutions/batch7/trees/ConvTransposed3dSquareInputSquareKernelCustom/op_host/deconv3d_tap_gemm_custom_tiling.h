#ifndef DECONV3D_TAP_GEMM_CUSTOM_TILING_H
#define DECONV3D_TAP_GEMM_CUSTOM_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
// Stride-1 transposed 3D convolution evaluated as a sum of K^3 small GEMMs.
// Input is channels-last and already zero padded by (K-1-pad) on every side
// (plus one spare H row), so that every kernel tap reads one contiguous
// [planeRows x Cin] slab of the padded depth plane.
BEGIN_TILING_DATA_DEF(Deconv3dTapGemmTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, padDepth);    // Dp
  TILING_DATA_FIELD_DEF(uint32_t, padHeight);   // Hp (includes the spare row)
  TILING_DATA_FIELD_DEF(uint32_t, padWidth);    // Wp
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kernel);
  TILING_DATA_FIELD_DEF(uint32_t, outDepth);
  TILING_DATA_FIELD_DEF(uint32_t, planeRows);   // outHeight * Wp, rows of one output plane GEMM
  TILING_DATA_FIELD_DEF(uint32_t, taskNum);     // batch * outDepth planes
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, gemm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv3dTapGemmCustom, Deconv3dTapGemmTilingData)
}
#endif
