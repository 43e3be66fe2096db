// curate: the AscendC language as the vendor compiler sees it before any header is read.
//
// Written for the curate project (facts of the public AscendC programming interface; the
// declarations are ours). Both libclang front ends force-include this file first: the ingest
// parser (structure only) and the kernel checker (which adds the API surface on top). Keywords
// only, no API: nothing here is meant to run.
#ifndef CURATE_ASCENDC_KEYWORDS_H
#define CURATE_ASCENDC_KEYWORDS_H

// Function and address-space qualifiers of the vendor compiler. They are kept as annotate
// attributes so that a cursor still tells a kernel entry from a helper.
#define __aicore__ __attribute__((annotate("aicore")))
#define __global__ __attribute__((annotate("global")))
#define __gm__
#define __ubuf__
#define __local_mem__
#define __host_aicore__
#define __disable_kernel_type_autoinfer__
#define __BLOCK_LOCAL__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __biasbuf__
#define __ssbuf__
#define __tiling_data_ptr__ const
#define __simd_vf__ __attribute__((annotate("simd_vf")))
#define __simd_callee__
#define __simt_vf__ __attribute__((annotate("simt_vf")))
#define __simt_callee__
// Mixed (cube + vector) kernel entries: `__mix__(cube cores, vector cores)`.
#define __mix__(...) __attribute__((annotate("mix")))
#define __VEC_SCOPE__
#define __inout_pipe__(pipe)
#define __in_pipe__(pipe)
#define __out_pipe__(pipe)
#define __sync_alias__
#define __sync_noalias__
#define __sync_in__
#define __sync_out__
#define __restrict__ __restrict
#define __launch_bounds__(...)
#define LAUNCH_BOUND(n) __launch_bounds__(n)
#define __inline__ inline
#define __forceinline__ inline __attribute__((always_inline))
#define __vector__ __attribute__((annotate("vector")))
#define __cube__ __attribute__((annotate("cube")))
// catlass kernels name the same qualifiers through their own macros.
#define CATLASS_GLOBAL __global__ __aicore__
#define CATLASS_DEVICE __aicore__ inline
#define CATLASS_HOST_DEVICE __aicore__ inline
#define __cce_get_tile_ptr(p) (p)

// Fixed-width integers without a C library: the checker runs with -nostdinc.
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long int64_t;
typedef unsigned long uint64_t;
typedef unsigned long size_t;
typedef long ssize_t;
typedef long ptrdiff_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
typedef long intmax_t;
typedef unsigned long uintmax_t;
typedef decltype(nullptr) nullptr_t;
#ifndef NULL
#define NULL nullptr
#endif

// Scalar element types of the vector and cube units. `half` is a real arithmetic type here;
// the narrower formats are storage types that convert to and from float, as on the device.
typedef _Float16 half;
// The vendor compiler's own spelling of the same type; host clang refuses `__fp16` parameters and
// return values, which device code has.
#define __fp16 _Float16
#define CURATE_STORAGE_SCALAR(Name)                                              \
    struct Name {                                                                \
        float curate_value_;                                                     \
        constexpr Name() : curate_value_(0) {}                                   \
        template <typename CurateU>                                              \
        constexpr Name(CurateU value) : curate_value_(static_cast<float>(value)) \
        {}                                                                       \
        constexpr operator float() const { return curate_value_; }               \
    }
CURATE_STORAGE_SCALAR(bfloat16_t);
CURATE_STORAGE_SCALAR(hifloat8_t);
CURATE_STORAGE_SCALAR(fp8_e4m3fn_t);
CURATE_STORAGE_SCALAR(fp8_e5m2_t);
CURATE_STORAGE_SCALAR(fp8_e8m0_t);
CURATE_STORAGE_SCALAR(fp4x2_e2m1_t);
CURATE_STORAGE_SCALAR(fp4x2_e1m2_t);
CURATE_STORAGE_SCALAR(int4b_t);
CURATE_STORAGE_SCALAR(int4x2_t);
CURATE_STORAGE_SCALAR(uint1b_t);
typedef bfloat16_t bfloat16;
// Some kernels guard their own fallback typedef with `#ifndef bfloat16_t`; the toolchain's type counts.
#define bfloat16_t bfloat16_t
typedef double float64_t;
typedef half float16_t;
typedef float float32_t;

#define GM_ADDR __gm__ uint8_t*
// So that `using namespace AscendC;` parses even where no AscendC header is available.
namespace AscendC {}

#endif  // CURATE_ASCENDC_KEYWORDS_H
