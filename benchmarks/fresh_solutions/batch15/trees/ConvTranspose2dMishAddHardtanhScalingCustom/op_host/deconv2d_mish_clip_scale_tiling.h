#ifndef DECONV2D_MISH_CLIP_SCALE_TILING_H
#define DECONV2D_MISH_CLIP_SCALE_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv2dMishClipScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, ih);
  TILING_DATA_FIELD_DEF(uint32_t, iw);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, owAlign);     // ow rounded up to 8 floats
  TILING_DATA_FIELD_DEF(uint32_t, iwAlign);     // iw + 1 zero slot, rounded up to 8
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, coTile);      // output channels computed together
  TILING_DATA_FIELD_DEF(uint32_t, coTiles);
  TILING_DATA_FIELD_DEF(uint32_t, totalUnits);  // batch * oh * coTiles
  TILING_DATA_FIELD_DEF(float, addValue);
  TILING_DATA_FIELD_DEF(float, clipMin);
  TILING_DATA_FIELD_DEF(float, clipMax);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Deconv2dMishClipScale, Deconv2dMishClipScaleTilingData)

ge::graphStatus Deconv2dMishClipScaleTilingFunc(gert::TilingContext *context);
}
#endif
