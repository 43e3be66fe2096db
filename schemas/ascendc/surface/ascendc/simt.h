// curate AscendC surface: the SIMT programming interface (thread-level vector functions,
// `__simt_vf__`, launched with asc_vf_call), as far as kernels use it.
#ifndef CURATE_ASCENDC_SIMT_H
#define CURATE_ASCENDC_SIMT_H

#include "asc_prelude.h"
#include "libc/cmath"

struct dim3 {
    uint32_t x = 1;
    uint32_t y = 1;
    uint32_t z = 1;
    constexpr dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
};
struct CurateSimtIndex {
    uint32_t x;
    uint32_t y;
    uint32_t z;
};
extern const CurateSimtIndex threadIdx;
extern const CurateSimtIndex blockIdx;
extern const CurateSimtIndex blockDim;
extern const CurateSimtIndex gridDim;
#define LAUNCH_BOUND(n) __launch_bounds__(n)
#define __SIMT_DEVICE_FUNCTIONS_DECL__ __aicore__

template <auto funcPtr, typename... Args>
__aicore__ inline void asc_vf_call(dim3 threadNums, Args&&... args);
__aicore__ inline void asc_syncthreads();
__aicore__ inline void __syncthreads();
#define CURATE_SIMT_ATOMIC(Name)      \
    template <typename T, typename U> \
    __aicore__ inline T Name(T* address, U val)
CURATE_SIMT_ATOMIC(asc_atomic_add);
CURATE_SIMT_ATOMIC(asc_atomic_sub);
CURATE_SIMT_ATOMIC(asc_atomic_exch);
CURATE_SIMT_ATOMIC(asc_atomic_max);
CURATE_SIMT_ATOMIC(asc_atomic_min);
CURATE_SIMT_ATOMIC(asc_atomic_and);
CURATE_SIMT_ATOMIC(asc_atomic_or);
CURATE_SIMT_ATOMIC(asc_atomic_xor);
template <typename T>
__aicore__ inline T asc_atomic_cas(T* address, T compare, T val);
template <typename T>
__aicore__ inline T asc_ldcg(T* address);
template <typename T>
__aicore__ inline T asc_ldca(T* address);
template <typename T>
__aicore__ inline void asc_stcg(T* address, T value);
template <typename T>
__aicore__ inline T __ldg(const T* address);
template <typename T>
__aicore__ inline T asc_shfl(T var, int32_t srcLane, int32_t width = 32);
template <typename T>
__aicore__ inline T asc_shfl_up(T var, uint32_t delta, int32_t width = 32);
template <typename T>
__aicore__ inline T asc_shfl_down(T var, uint32_t delta, int32_t width = 32);
template <typename T>
__aicore__ inline T asc_shfl_xor(T var, int32_t laneMask, int32_t width = 32);
template <typename T>
__aicore__ inline T asc_reduce_add(T var);
template <typename T>
__aicore__ inline T asc_reduce_max(T var);
template <typename T>
__aicore__ inline T asc_reduce_min(T var);
__aicore__ inline float __half2float(half x);
__aicore__ inline half __float2half(float x);
__aicore__ inline half __float2half_rn(float x);
__aicore__ inline half __float2half_rn_sat(float x);
__aicore__ inline float __bfloat162float(bfloat16_t x);
__aicore__ inline bfloat16_t __float2bfloat16(float x);
__aicore__ inline bfloat16_t __float2bfloat16_rn(float x);
__aicore__ inline bfloat16_t __float2bfloat16_rn_sat(float x);
__aicore__ inline uint32_t __umulhi(uint32_t x, uint32_t y);
__aicore__ inline uint64_t __umul64hi(uint64_t x, uint64_t y);
__aicore__ inline int64_t __mul_i32toi64(int32_t x, int32_t y);

// The compiler's own launch namespace (asc_vf_call is built on it).
namespace cce {
using ::dim3;
template <auto funcPtr, typename... Args>
__aicore__ inline void async_invoke(dim3 threadNums, Args&&... args);
}  // namespace cce

namespace AscendC {
namespace Simt {
struct Dim3 {
    uint32_t x = 1;
    uint32_t y = 1;
    uint32_t z = 1;
    constexpr Dim3(uint32_t vx = 1, uint32_t vy = 1, uint32_t vz = 1) : x(vx), y(vy), z(vz) {}
};
template <auto funcPtr, typename... Args>
__aicore__ inline void VF_CALL(Dim3 threadNums, Args&&... args);
template <int32_t dim = 0>
__aicore__ inline uint32_t GetThreadIdx();
template <int32_t dim = 0>
__aicore__ inline uint32_t GetThreadNum();
__aicore__ inline uint32_t GetBlockIdx();
__aicore__ inline uint32_t GetBlockNum();
__aicore__ inline int32_t GetWarpSize();
__aicore__ inline void ThreadBarrier();
template <typename T>
__aicore__ inline T UintDiv(T dividend, T magic, T shift);
#define CURATE_SIMT_MATH1(Name) \
    template <typename T>       \
    __aicore__ inline T Name(T x)
#define CURATE_SIMT_MATH2(Name) \
    template <typename T>       \
    __aicore__ inline T Name(T x, T y)
CURATE_SIMT_MATH1(Abs);
CURATE_SIMT_MATH1(Sqrt);
CURATE_SIMT_MATH1(Rsqrt);
CURATE_SIMT_MATH1(Exp);
CURATE_SIMT_MATH1(Exp2);
CURATE_SIMT_MATH1(Expm1);
CURATE_SIMT_MATH1(Log);
CURATE_SIMT_MATH1(Log2);
CURATE_SIMT_MATH1(Log10);
CURATE_SIMT_MATH1(Log1p);
CURATE_SIMT_MATH1(Sin);
CURATE_SIMT_MATH1(Cos);
CURATE_SIMT_MATH1(Tan);
CURATE_SIMT_MATH1(Asin);
CURATE_SIMT_MATH1(Acos);
CURATE_SIMT_MATH1(Atan);
CURATE_SIMT_MATH1(Sinh);
CURATE_SIMT_MATH1(Cosh);
CURATE_SIMT_MATH1(Tanh);
CURATE_SIMT_MATH1(Asinh);
CURATE_SIMT_MATH1(Acosh);
CURATE_SIMT_MATH1(Atanh);
CURATE_SIMT_MATH1(Erf);
CURATE_SIMT_MATH1(Erfc);
CURATE_SIMT_MATH1(Lgamma);
CURATE_SIMT_MATH1(Tgamma);
CURATE_SIMT_MATH1(Floor);
CURATE_SIMT_MATH1(Ceil);
CURATE_SIMT_MATH1(Round);
CURATE_SIMT_MATH1(Rint);
CURATE_SIMT_MATH1(Trunc);
CURATE_SIMT_MATH1(Cbrt);
CURATE_SIMT_MATH1(Brev);
CURATE_SIMT_MATH2(Atan2);
CURATE_SIMT_MATH2(Pow);
CURATE_SIMT_MATH2(Hypot);
CURATE_SIMT_MATH2(Fmod);
CURATE_SIMT_MATH2(Max);
CURATE_SIMT_MATH2(Min);
CURATE_SIMT_MATH2(CopySign);
template <typename T>
__aicore__ inline T Fma(T x, T y, T z);
template <typename T>
__aicore__ inline bool IsNan(T x);
template <typename T>
__aicore__ inline bool IsInf(T x);
template <typename T>
__aicore__ inline bool IsFinite(T x);
template <typename T>
__aicore__ inline int32_t Clz(T x);
template <typename T>
__aicore__ inline int32_t Ffs(T x);
template <typename T>
__aicore__ inline int32_t Popc(T x);
template <typename T, typename U, RoundMode roundMode = RoundMode::CAST_NONE>
__aicore__ inline T Cast(U x);
CURATE_SIMT_ATOMIC(AtomicAdd);
CURATE_SIMT_ATOMIC(AtomicSub);
CURATE_SIMT_ATOMIC(AtomicExch);
CURATE_SIMT_ATOMIC(AtomicMax);
CURATE_SIMT_ATOMIC(AtomicMin);
CURATE_SIMT_ATOMIC(AtomicAnd);
CURATE_SIMT_ATOMIC(AtomicOr);
CURATE_SIMT_ATOMIC(AtomicXor);
template <typename T>
__aicore__ inline T AtomicCas(T* address, T compare, T val);
}  // namespace Simt
}  // namespace AscendC

#endif  // CURATE_ASCENDC_SIMT_H
