// Tiling of InvertedBottleneck: 1x1 expand -> KxK depthwise -> 1x1 project (+ skip).
#ifndef INVERTED_BOTTLENECK_TILING_H
#define INVERTED_BOTTLENECK_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(InvertedBottleneckTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, hidden);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF(uint32_t, w);
  TILING_DATA_FIELD_DEF(uint32_t, ho);
  TILING_DATA_FIELD_DEF(uint32_t, wo);
  TILING_DATA_FIELD_DEF(uint32_t, ksize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, residual);      // 1 when the input is added back
  TILING_DATA_FIELD_DEF(uint32_t, rowOffset);     // aligned left margin in the row buffer
  TILING_DATA_FIELD_DEF(uint32_t, rowBufLen);
  TILING_DATA_FIELD_DEF(uint32_t, woAlign);
  TILING_DATA_FIELD_DEF(uint32_t, expandCols);    // pixels per expand GEMM unit
  TILING_DATA_FIELD_DEF(uint32_t, projectCols);   // pixels per project GEMM unit
  TILING_DATA_FIELD_DEF(uint32_t, epiChunk);      // elements per epilogue chunk
  TILING_DATA_FIELD_DEF(uint64_t, dwWsOffset);    // byte offset of the depthwise buffer in workspace
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, expandMm);
  TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, projectMm);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(InvertedBottleneck, InvertedBottleneckTilingData)
}  // namespace optiling
#endif
