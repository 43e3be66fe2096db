#ifndef DECONV3D_ROW_NORM_POOL_GELU_TILING_H
#define DECONV3D_ROW_NORM_POOL_GELU_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv3dRowNormPoolGeluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, ci);
  TILING_DATA_FIELD_DEF(uint32_t, di);
  TILING_DATA_FIELD_DEF(uint32_t, hi);
  TILING_DATA_FIELD_DEF(uint32_t, wi);
  TILING_DATA_FIELD_DEF(uint32_t, co);
  TILING_DATA_FIELD_DEF(uint32_t, kd);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, sd);
  TILING_DATA_FIELD_DEF(uint32_t, sh);
  TILING_DATA_FIELD_DEF(uint32_t, sw);
  TILING_DATA_FIELD_DEF(uint32_t, pd);
  TILING_DATA_FIELD_DEF(uint32_t, ph);
  TILING_DATA_FIELD_DEF(uint32_t, pw);
  TILING_DATA_FIELD_DEF(uint32_t, dOut);     // deconvolution output extent
  TILING_DATA_FIELD_DEF(uint32_t, hOut);
  TILING_DATA_FIELD_DEF(uint32_t, wOut);     // == normalised length
  TILING_DATA_FIELD_DEF(uint32_t, poolD);
  TILING_DATA_FIELD_DEF(uint32_t, poolH);
  TILING_DATA_FIELD_DEF(uint32_t, poolW);
  TILING_DATA_FIELD_DEF(uint32_t, dPool);    // pooled output extent
  TILING_DATA_FIELD_DEF(uint32_t, hPool);
  TILING_DATA_FIELD_DEF(uint32_t, wPool);
  TILING_DATA_FIELD_DEF(uint32_t, wOutAlign);
  TILING_DATA_FIELD_DEF(uint32_t, wInAlign);
  TILING_DATA_FIELD_DEF(uint32_t, wPoolAlign);
  TILING_DATA_FIELD_DEF(uint32_t, units);    // n * co * dPool * hPool
  TILING_DATA_FIELD_DEF(float, addend);
  TILING_DATA_FIELD_DEF(float, eps);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Deconv3dRowNormPoolGelu, Deconv3dRowNormPoolGeluTilingData)

ge::graphStatus Deconv3dRowNormPoolGeluTiling(gert::TilingContext* context);
}
#endif
