/**
 * Tiling data for DeconvChanMinHeightSumGelu.
 *
 * The work unit is one output column (n, ow): the kernel walks every output row of that
 * column, reduces the transposed-convolution result over channels with min, accumulates the
 * minima over the height and finally applies erf-GELU and the scalar shift.
 */
#ifndef DECONV_CHAN_MIN_HEIGHT_SUM_GELU_TILING_H
#define DECONV_CHAN_MIN_HEIGHT_SUM_GELU_TILING_H

#include "register/tilingdata_base.h"
#include "register/op_def_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DeconvChanMinHeightSumGeluTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, inChannels);
  TILING_DATA_FIELD_DEF(uint32_t, outChannels);
  TILING_DATA_FIELD_DEF(uint32_t, inH);
  TILING_DATA_FIELD_DEF(uint32_t, inW);
  TILING_DATA_FIELD_DEF(uint32_t, kernelH);
  TILING_DATA_FIELD_DEF(uint32_t, kernelW);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, outH);
  TILING_DATA_FIELD_DEF(uint32_t, outW);
  TILING_DATA_FIELD_DEF(uint32_t, totalColumns);   // batch * outW
  TILING_DATA_FIELD_DEF(uint32_t, columnsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, columnsTail);     // first columnsTail cores take one extra column
  TILING_DATA_FIELD_DEF(uint32_t, coChunk);         // output channels whose weights sit in UB at once
  TILING_DATA_FIELD_DEF(uint32_t, flushLen);        // results buffered before a store to GM
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(DeconvChanMinHeightSumGelu, DeconvChanMinHeightSumGeluTilingData)

ge::graphStatus DeconvChanMinHeightSumGeluTilingFunc(gert::TilingContext *context);
} // namespace optiling

#endif
