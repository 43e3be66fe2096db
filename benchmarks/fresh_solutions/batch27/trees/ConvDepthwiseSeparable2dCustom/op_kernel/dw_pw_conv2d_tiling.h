#ifndef DW_PW_CONV2D_TILING_H
#define DW_PW_CONV2D_TILING_H

#include <cstdint>

// Per-channel k x k convolution followed by a 1x1 channel mix, both bias free:
//   d[n, c, oh, ow] = sum_{kh, kw} x[n, c, oh*stride - pad + kh*dil, ow*stride - pad + kw*dil] * wd[c, 0, kh, kw]
//   y[n, o, oh, ow] = sum_c wp[o, c, 0, 0] * d[n, c, oh, ow]
struct DwPwConv2dTiling {
    uint32_t batch;
    uint32_t channels;      // input channels == depthwise groups
    uint32_t outChannels;   // pointwise output channels
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t ksize;
    uint32_t stride;
    uint32_t pad;
    uint32_t dilation;
    uint32_t tileW;         // output columns per unit; multiple of 8 and tileW*stride multiple of 8
    uint32_t tilesPerRow;   // ceil(outW / tileW)
    uint32_t segPitch;      // UB pitch of one staged input segment, multiple of 8,
                            //   >= align8(7 + (tileW-1)*stride + (ksize-1)*dilation + 1)
    uint32_t totalUnits;    // batch * outH * tilesPerRow
    uint32_t unitsPerCore;
};

#endif // DW_PW_CONV2D_TILING_H
