#ifndef SEQ_WINDOW_MAX_TILING_H
#define SEQ_WINDOW_MAX_TILING_H
#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SeqWindowMaxTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, rows);        // batch * channels
  TILING_DATA_FIELD_DEF(uint32_t, inLen);
  TILING_DATA_FIELD_DEF(uint32_t, inLenAlign);
  TILING_DATA_FIELD_DEF(uint32_t, outLen);
  TILING_DATA_FIELD_DEF(uint32_t, outLenAlign);
  TILING_DATA_FIELD_DEF(uint32_t, window);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, dilation);
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, rowsExtra);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SeqWindowMax, SeqWindowMaxTilingData)

ge::graphStatus SeqWindowMaxTilingFunc(gert::TilingContext *context);
}
#endif
