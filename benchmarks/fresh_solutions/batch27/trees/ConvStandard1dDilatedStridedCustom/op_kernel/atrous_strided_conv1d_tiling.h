#ifndef ATROUS_STRIDED_CONV1D_TILING_H
#define ATROUS_STRIDED_CONV1D_TILING_H

#include <cstdint>

// Valid (unpadded) 1-D cross-correlation with stride and dilation, no bias.
//   y[n, o, l] = sum_{c, k} w[o, c, k] * x[n, c, l * stride + k * dilation]
struct AtrousStridedConv1dTiling {
    uint32_t batch;
    uint32_t inChannels;
    uint32_t outChannels;
    uint32_t taps;          // kernel size
    uint32_t stride;
    uint32_t dilation;
    uint32_t inLength;
    uint32_t outLength;     // (inLength - dilation*(taps-1) - 1) / stride + 1
    uint32_t tileLen;       // output positions per tile, multiple of 8
    uint32_t tilesPerRow;   // ceil(outLength / tileLen)
    uint32_t chanChunk;     // input channels staged in UB per step
    uint32_t rowPitch;      // UB pitch (elements) of one staged input window, multiple of 8:
                            //   >= stride*(tileLen-1) + dilation*(taps-1) + 1
    uint32_t totalTiles;    // batch * tilesPerRow
    uint32_t tilesPerCore;
};

#endif // ATROUS_STRIDED_CONV1D_TILING_H
