// tiling data for TrilinearUpsampleCustom
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TrilinearUpsampleCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, nc);
  TILING_DATA_FIELD_DEF(uint32_t, id);
  TILING_DATA_FIELD_DEF(uint32_t, ih);
  TILING_DATA_FIELD_DEF(uint32_t, iw);
  TILING_DATA_FIELD_DEF(uint32_t, od);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, planes);
  TILING_DATA_FIELD_DEF(uint32_t, planesPerCore);
  TILING_DATA_FIELD_DEF(float, rd);
  TILING_DATA_FIELD_DEF(float, rh);
  TILING_DATA_FIELD_DEF(float, rw);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(TrilinearUpsampleCustom, TrilinearUpsampleCustomTilingData)
}
