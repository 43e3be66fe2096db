/**
 * Tiling data for Deconv2dSquareKernel (2-D transposed convolution, KxK kernel).
 */
#ifndef DECONV2D_SQUARE_KERNEL_TILING_H
#define DECONV2D_SQUARE_KERNEL_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Deconv2dSquareKernelTilingData)
  TILING_DATA_FIELD_DEF(uint32_t, batch);
  TILING_DATA_FIELD_DEF(uint32_t, cin);
  TILING_DATA_FIELD_DEF(uint32_t, cout);
  TILING_DATA_FIELD_DEF(uint32_t, hin);
  TILING_DATA_FIELD_DEF(uint32_t, win);
  TILING_DATA_FIELD_DEF(uint32_t, hout);
  TILING_DATA_FIELD_DEF(uint32_t, wout);
  TILING_DATA_FIELD_DEF(uint32_t, kSize);
  TILING_DATA_FIELD_DEF(uint32_t, stride);
  TILING_DATA_FIELD_DEF(uint32_t, pad);
  TILING_DATA_FIELD_DEF(uint32_t, groups);
  TILING_DATA_FIELD_DEF(uint32_t, cinPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, coutPerGroup);
  TILING_DATA_FIELD_DEF(uint32_t, ocBlock);        // output channels accumulated together in UB
  TILING_DATA_FIELD_DEF(uint32_t, ocBlockNum);     // cout / ocBlock
  TILING_DATA_FIELD_DEF(uint32_t, winAlign);       // win rounded up to 8 elements
  TILING_DATA_FIELD_DEF(uint32_t, woutAlign);      // wout rounded up to 8 elements
  TILING_DATA_FIELD_DEF(uint32_t, totalRows);      // batch * ocBlockNum * hout work items
  TILING_DATA_FIELD_DEF(uint32_t, rowsPerCore);
  TILING_DATA_FIELD_DEF(uint32_t, hasBias);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Deconv2dSquareKernel, Deconv2dSquareKernelTilingData)
}  // namespace optiling
#endif
