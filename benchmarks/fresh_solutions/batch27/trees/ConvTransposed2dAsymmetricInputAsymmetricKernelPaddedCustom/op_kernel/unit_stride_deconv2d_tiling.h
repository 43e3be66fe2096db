#ifndef UNIT_STRIDE_DECONV2D_TILING_H
#define UNIT_STRIDE_DECONV2D_TILING_H

#include <cstdint>

// Transposed 2-D convolution with stride 1 and per-axis padding, no bias:
//   y[n, o, oh, ow] = sum_{c, kh, kw} x[n, c, oh + padH - kh, ow + padW - kw] * w[c, o, kh, kw]
// weight layout is the PyTorch ConvTranspose2d layout [inChannels, outChannels, kH, kW].
//   outH = inH - 1 - 2*padH + kH,  outW = inW - 1 - 2*padW + kW
struct UnitStrideDeconv2dTiling {
    uint32_t batch;
    uint32_t inChannels;
    uint32_t outChannels;
    uint32_t inH;
    uint32_t inW;
    uint32_t outH;
    uint32_t outW;
    uint32_t kH;
    uint32_t kW;
    uint32_t padH;
    uint32_t padW;
    uint32_t tileW;        // output columns per work unit, multiple of 8
    uint32_t tilesPerRow;  // ceil(outW / tileW)
    uint32_t segPitch;     // UB pitch of one staged input row segment, multiple of 8,
                           //   >= align8(7 + tileW + kW - 1)
    uint32_t totalUnits;   // batch * outH * tilesPerRow
    uint32_t unitsPerCore;
};

#endif // UNIT_STRIDE_DECONV2D_TILING_H
