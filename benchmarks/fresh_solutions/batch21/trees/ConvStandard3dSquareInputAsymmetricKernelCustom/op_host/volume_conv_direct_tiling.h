#ifndef VOLUME_CONV_DIRECT_TILING_H
#define VOLUME_CONV_DIRECT_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(VolumeConvDirectTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, d);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, kd);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, sd);
  TILING_DATA_FIELD_DEF(uint32_t, sh);
  TILING_DATA_FIELD_DEF(uint32_t, sw);
  TILING_DATA_FIELD_DEF(uint32_t, pd);
  TILING_DATA_FIELD_DEF(uint32_t, ph);
  TILING_DATA_FIELD_DEF(uint32_t, pw);
  TILING_DATA_FIELD_DEF(uint32_t, dd);
  TILING_DATA_FIELD_DEF(uint32_t, dh);
  TILING_DATA_FIELD_DEF(uint32_t, dw);
  TILING_DATA_FIELD_DEF(uint32_t, od);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, owAlign);
  TILING_DATA_FIELD_DEF(uint32_t, wAlign);
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  TILING_DATA_FIELD_DEF(uint64_t, rowsTotal);   // n * cout * od * oh output rows
  TILING_DATA_FIELD_DEF(uint64_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint64_t, rowsRemain);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(VolumeConvDirect, VolumeConvDirectTilingData)

ge::graphStatus VolumeConvDirectTilingFunc(gert::TilingContext *context);
}
#endif
