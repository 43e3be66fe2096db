/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * Small device helpers shared by the optimizer kernels of this sample.
 */
#ifndef SAMPLES_KERNEL_UTILS_H
#define SAMPLES_KERNEL_UTILS_H

#include "kernel_operator.h"

namespace kernel_utils {
constexpr uint32_t BLOCK_BYTES = 32;

template <typename T>
__aicore__ inline T CeilDiv(T a, T b)
{
    return b == 0 ? a : (a + b - 1) / b;
}

template <typename T>
__aicore__ inline T AlignUp(T a, T b)
{
    return CeilDiv(a, b) * b;
}

// Copies a POD tiling struct from GM word by word; the struct must be a whole number of words.
template <typename TilingT>
__aicore__ inline void CopyTiling(TilingT *dst, GM_ADDR src)
{
    static_assert(sizeof(TilingT) % sizeof(uint32_t) == 0, "tiling must be 4-byte granular");
    const __gm__ uint32_t *in = reinterpret_cast<const __gm__ uint32_t *>(src);
    uint32_t *out = reinterpret_cast<uint32_t *>(dst);
    for (uint32_t i = 0; i < sizeof(TilingT) / sizeof(uint32_t); ++i) {
        out[i] = in[i];
    }
}

// One contiguous burst of `count` elements; byte-exact, so tails need no padding.
template <typename T>
__aicore__ inline AscendC::DataCopyExtParams ContiguousBurst(uint32_t count)
{
    return AscendC::DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
}
} // namespace kernel_utils

#endif // SAMPLES_KERNEL_UTILS_H
