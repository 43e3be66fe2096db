#ifndef GROUPED_DECONV2D_TILING_H
#define GROUPED_DECONV2D_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(GroupedDeconv2dTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, n);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, kh);
  TILING_DATA_FIELD_DEF(uint32_t, kw);
  TILING_DATA_FIELD_DEF(uint32_t, oh);
  TILING_DATA_FIELD_DEF(uint32_t, ow);
  TILING_DATA_FIELD_DEF(uint32_t, sh);
  TILING_DATA_FIELD_DEF(uint32_t, sw);
  TILING_DATA_FIELD_DEF(uint32_t, ph);
  TILING_DATA_FIELD_DEF(uint32_t, pw);
  TILING_DATA_FIELD_DEF(uint32_t, dh);
  TILING_DATA_FIELD_DEF(uint32_t, dw);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, ohBlock);     // output rows per work unit
  TILING_DATA_FIELD_DEF(uint32_t, ihSpan);      // max input rows a unit touches
  TILING_DATA_FIELD_DEF(uint32_t, blocksPerPlane);
  TILING_DATA_FIELD_DEF(uint32_t, units);       // n * groups * blocksPerPlane
  TILING_DATA_FIELD_DEF(uint32_t, wPad);        // staging length: w + zero slot, 32B aligned
  TILING_DATA_FIELD_DEF(uint32_t, owPad);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, colMm);  // Wg^T[CoKK, Cin_g] x x_g[Cin_g, ihSpan*w]
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(GroupedDeconv2d, GroupedDeconv2dTilingData)
}
#endif
