// curate AscendC surface: what the vendor compiler provides before any header is read.
//
// Written for the curate project from the public AscendC programming interface (names,
// parameter lists and values are facts of that interface; the declarations are ours). The
// checker force-includes this file, so a kernel that uses `__aicore__` or `half` before its
// first #include still parses. Declarations only: nothing here is meant to run.
#ifndef CURATE_ASC_PRELUDE_H
#define CURATE_ASC_PRELUDE_H

// The language keywords and element types come first, from schemas/ascendc/keywords.h.

// Complex element types (real and imaginary parts of one width): global names only on the
// architectures whose interface declares them there (Ascend950 class); elsewhere kernels may
// define their own `complex64`.
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102)
struct complex32 {
    half real;
    half imag;
    constexpr complex32() : real(0), imag(0) {}
    template <typename CurateU>
    constexpr complex32(CurateU r, CurateU i = 0) : real(static_cast<half>(r)), imag(static_cast<half>(i))
    {}
};
struct complex64 {
    float real;
    float imag;
    constexpr complex64() : real(0), imag(0) {}
    template <typename CurateU>
    constexpr complex64(CurateU r, CurateU i = 0) : real(static_cast<float>(r)), imag(static_cast<float>(i))
    {}
};
#endif

// Scalar min/max/abs of the vector core's scalar unit, usable unqualified in kernel code.
template <typename CurateT, typename CurateU>
__aicore__ inline constexpr auto min(const CurateT& a, const CurateU& b)
{
    return a < b ? a : b;
}
template <typename CurateT, typename CurateU>
__aicore__ inline constexpr auto max(const CurateT& a, const CurateU& b)
{
    return a < b ? b : a;
}
template <typename CurateT>
__aicore__ inline constexpr CurateT abs(const CurateT& a)
{
    return a < 0 ? -a : a;
}

// The offset of a member, as the compiler provides it.
#ifndef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif

// Kernel argument type: a byte pointer into global memory.

// Hardware pipes and event ids are compiler built-ins.
enum pipe_t {
    PIPE_S = 0,
    PIPE_V,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_ALL,
    PIPE_MTE4,
    PIPE_MTE5,
    PIPE_V2,
    PIPE_FIX,
    PIPE_V3,
};
enum event_t {
    EVENT_ID0 = 0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7,
};
enum mem_dsb_t { DSB_ALL = 0, DSB_DDR, DSB_UB, DSB_SEQ };
// Fixpipe quantisation and padding modes are compiler built-ins too: kernels outside namespace
// AscendC name them unqualified (`QuantMode_t::F322F16`).
enum QuantMode_t {
    NoQuant = 0,
    F322F16,
    F322BF16,
    DEQF16,
    VDEQF16,
    QF322B8_PRE,
    VQF322B8_PRE,
    REQ8,
    VREQ8,
    REQ4,
    VREQ4,
    DEQS16,
    VDEQS16,
    QF162B8_PRE,
    VQF162B8_PRE,
    QF162S4_PRE,
    VQF162S4_PRE,
    QF162S16_PRE,
    VQF162S16_PRE,
    // Ascend950 (arch35) fixpipe modes
    QF322F16_PRE,
    VQF322F16_PRE,
    QF322BF16_PRE,
    VQF322BF16_PRE,
    QF322F32_PRE,
    VQF322F32_PRE,
    QF322FP8_PRE,
    VQF322FP8_PRE,
    QF322HIF8_PRE,
    VQF322HIF8_PRE,
    QF322HIF8_PRE_HYBRID,
    VQF322HIF8_PRE_HYBRID,
    QS322BF16_PRE,
    VQS322BF16_PRE,
};
enum pad_t { PAD_NONE = 0, PAD_MODE1, PAD_MODE2, PAD_MODE3, PAD_MODE4, PAD_MODE5, PAD_MODE6, PAD_MODE7, PAD_MODE8 };

// Kernel task types for KERNEL_TASK_TYPE_DEFAULT / KERNEL_TASK_TYPE.
enum KernelMetaType {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX,
};

// Operator data types as the build system names them (ORIG_DTYPE_<X> expands to one of these).
// Macros rather than enumerators, because kernels also compare them in #if directives.
#define DT_FLOAT 0
#define DT_FLOAT16 1
#define DT_INT8 2
#define DT_INT32 3
#define DT_UINT8 4
#define DT_INT16 6
#define DT_UINT16 7
#define DT_UINT32 8
#define DT_INT64 9
#define DT_UINT64 10
#define DT_DOUBLE 11
#define DT_BOOL 12
#define DT_COMPLEX64 16
#define DT_COMPLEX128 17
#define DT_BF16 27
#define DT_INT4 29
#define DT_COMPLEX32 33
#define DT_HIFLOAT8 34
#define DT_FLOAT8_E5M2 35
#define DT_FLOAT8_E4M3FN 36
#define DT_FLOAT8_E8M0 37
#define DT_FLOAT4_E2M1 38
#define DT_FLOAT4_E1M2 39
#define DT_UINT1 40
#define DT_INT2 41
#define DT_UINT2 42
#define DT_FLOAT32 DT_FLOAT
#define DT_BFLOAT16 DT_BF16

// Core-type and build switches: a vector core of the selected SoC.
namespace AscendC {
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
}  // namespace AscendC
constexpr int32_t g_coreType = AscendC::AIV;
#define ASCEND_IS_AIV (g_coreType == AscendC::AIV)
#define ASCEND_IS_AIC (g_coreType == AscendC::AIC)
#define ASCEND_IS_NOT_AIV (g_coreType != AscendC::AIV)
#define ASCEND_IS_NOT_AIC (g_coreType != AscendC::AIC)
#define ASCEND_IS_AICORE (true)
#ifndef TILING_KEY_VAR
#define TILING_KEY_VAR 0
#endif

// Tiling-key template declarations expand to nothing in a kernel build; they are available to every
// kernel because the shared operator headers that normally include them may be missing.
#include "ascendc/host_api/tiling/template_argument.h"

#endif  // CURATE_ASC_PRELUDE_H
