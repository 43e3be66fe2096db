#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DownsampleBilinearCustomTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, planes);       // N * C
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, inWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, outWAlign);
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);    // planes * outH
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(float, scaleH);          // inH / outH  (align_corners = False)
  TILING_DATA_FIELD_DEF(float, scaleW);          // inW / outW
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DownsampleBilinearCustom, DownsampleBilinearCustomTilingData)
}
