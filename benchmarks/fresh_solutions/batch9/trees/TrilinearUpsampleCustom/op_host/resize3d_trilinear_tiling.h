#ifndef RESIZE3D_TRILINEAR_TILING_H
#define RESIZE3D_TRILINEAR_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Resize3dTrilinearTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);      // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inD);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outD);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, inWPad);      // inW rounded up to 16 elements
  TILING_DATA_FIELD_DEF(uint32_t, outWPad);     // outW rounded up to 64 elements
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore); // output rows (plane, od, oh) per core
  TILING_DATA_FIELD_DEF(uint32_t, alignCorners);
  TILING_DATA_FIELD_DEF(float, ratioD);         // source = f(dst, ratio)
  TILING_DATA_FIELD_DEF(float, ratioH);
  TILING_DATA_FIELD_DEF(float, ratioW);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Resize3dTrilinear, Resize3dTrilinearTilingData)

ge::graphStatus Resize3dTrilinearTilingFunc(gert::TilingContext *context);
} // namespace optiling

#endif
