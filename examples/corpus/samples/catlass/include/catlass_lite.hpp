/*
 * Copyright 2026 Ascend-CoT curate authors
 * SPDX-License-Identifier: Apache-2.0
 *
 * A very small catlass-like prelude for the samples in this folder: the
 * function qualifiers, a problem-shape coordinate and a few layout constants.
 * It is not the catlass library; it only mirrors its spelling.
 */
#ifndef CATLASS_LITE_HPP
#define CATLASS_LITE_HPP

#include <cstdint>
#if defined(__CCE__)
#include "kernel_operator.h"
#endif

#define CATLASS_DEVICE __forceinline__ __aicore__
#if defined(__CCE__)
#define CATLASS_HOST_DEVICE __forceinline__ [host, aicore]
#else
#define CATLASS_HOST_DEVICE inline
#endif
#define CATLASS_GLOBAL __global__ __aicore__

namespace CatlassLite {

constexpr uint32_t BYTE_PER_C0 = 32;     // one L1/L0 fractal row
constexpr uint32_t C0_NUM_PER_FRACTAL = 16;
constexpr uint32_t BYTE_PER_FRACTAL = BYTE_PER_C0 * C0_NUM_PER_FRACTAL;

template <class T>
CATLASS_HOST_DEVICE constexpr T CeilDiv(T a, T b)
{
    return (a + b - 1) / b;
}

template <class T>
CATLASS_HOST_DEVICE constexpr T RoundUp(T a, T b)
{
    return CeilDiv(a, b) * b;
}

struct GemmCoord {
    uint32_t m = 0;
    uint32_t n = 0;
    uint32_t k = 0;
};

// Row-major matrix view: element (r, c) sits at r * stride + c.
struct RowMajor {
    uint32_t rows = 0;
    uint32_t cols = 0;
    uint32_t stride = 0;
};

template <class Element>
struct ElementsPerC0 {
    static constexpr uint32_t value = BYTE_PER_C0 / sizeof(Element);
};

} // namespace CatlassLite

#endif // CATLASS_LITE_HPP
