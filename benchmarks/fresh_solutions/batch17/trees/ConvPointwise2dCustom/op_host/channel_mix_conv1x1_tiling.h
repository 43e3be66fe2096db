#ifndef CHANNEL_MIX_CONV1X1_TILING_H
#define CHANNEL_MIX_CONV1X1_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ChannelMixConv1x1Tiling)
  TILING_DATA_FIELD_DEF(uint64_t, spatial);     // H * W, N of the per-image GEMM
  TILING_DATA_FIELD_DEF(uint32_t, batch);       // N
  TILING_DATA_FIELD_DEF(uint32_t, cin);         // K of the per-image GEMM
  TILING_DATA_FIELD_DEF(uint32_t, cout);        // M of the per-image GEMM
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
  TILING_DATA_FIELD_DEF(uint32_t, biasChunk);   // elements per UB chunk in the bias epilogue
  TILING_DATA_FIELD_DEF(uint32_t, reserved);    // keeps the cube tiling block 8-byte aligned
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(ChannelMixConv1x1, ChannelMixConv1x1Tiling)
}  // namespace optiling
#endif
