/**
 * Tiling data for ChannelRmsScale.
 * The input is viewed as [outer, channels, inner]; statistics are reduced over `channels`.
 */
#ifndef CHANNEL_RMS_SCALE_TILING_H
#define CHANNEL_RMS_SCALE_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelRmsScaleTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, outer);        // product of dims before the channel axis
  TILING_DATA_FIELD_DEF(uint32_t, channels);     // reduced axis length
  TILING_DATA_FIELD_DEF(uint32_t, inner);        // product of dims after the channel axis
  TILING_DATA_FIELD_DEF(uint32_t, colTile);      // inner columns handled per iteration
  TILING_DATA_FIELD_DEF(uint32_t, colTilesPerRow); // ceil(inner / colTile)
  TILING_DATA_FIELD_DEF(uint32_t, totalTasks);   // outer * colTilesPerRow
  TILING_DATA_FIELD_DEF(uint32_t, tasksPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, tailCoreTasks); // the first `tailCoreTasks` cores take one extra
  TILING_DATA_FIELD_DEF(float, eps);
  TILING_DATA_FIELD_DEF(float, invChannels);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelRmsScale, ChannelRmsScaleTilingData)

ge::graphStatus ChannelRmsScaleTiling(gert::TilingContext *context);
} // namespace optiling
#endif
