#ifndef INVERTED_RESIDUAL_BLOCK_TILING_H
#define INVERTED_RESIDUAL_BLOCK_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InvertedResidualBlockTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, chid);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, rowAlign);       // inW rounded up to 8 floats (+ room for padding)
  TILING_DATA_FIELD_DEF(uint32_t, expandTile);     // pixels per stage-1 work item
  TILING_DATA_FIELD_DEF(uint32_t, projectTile);    // pixels per stage-3 work item
  TILING_DATA_FIELD_DEF(uint32_t, useResidual);
  TILING_DATA_FIELD_DEF(uint32_t, coreNum);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(InvertedResidualBlock, InvertedResidualBlockTilingData)

ge::graphStatus InvertedResidualBlockTilingFunc(gert::TilingContext *context);
}  // namespace optiling
#endif
