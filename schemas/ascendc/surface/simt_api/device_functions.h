// curate AscendC surface: SIMT header device_functions.h (conversions with a rounding mode, bit casts,
// cache-controlled loads and stores).
#pragma once
#include "ascendc/types.h"
#include "ascendc/simt.h"
#include "libc/cmath"
#include "simt_api/device_sync_functions.h"

__aicore__ inline int __float2int_rn(float x);
__aicore__ inline int __float2int_rz(float x);
__aicore__ inline int __float2int_rd(float x);
__aicore__ inline int __float2int_ru(float x);
__aicore__ inline int __float2int_rna(float x);
__aicore__ inline unsigned int __float2uint_rn(float x);
__aicore__ inline unsigned int __float2uint_rz(float x);
__aicore__ inline unsigned int __float2uint_rd(float x);
__aicore__ inline unsigned int __float2uint_ru(float x);
__aicore__ inline unsigned int __float2uint_rna(float x);
__aicore__ inline long long __float2ll_rn(float x);
__aicore__ inline long long __float2ll_rz(float x);
__aicore__ inline long long __float2ll_rd(float x);
__aicore__ inline long long __float2ll_ru(float x);
__aicore__ inline long long __float2ll_rna(float x);
__aicore__ inline unsigned long long __float2ull_rn(float x);
__aicore__ inline unsigned long long __float2ull_rz(float x);
__aicore__ inline unsigned long long __float2ull_rd(float x);
__aicore__ inline unsigned long long __float2ull_ru(float x);
__aicore__ inline unsigned long long __float2ull_rna(float x);
__aicore__ inline float __float2float_rn(float x);
__aicore__ inline float __float2float_rz(float x);
__aicore__ inline float __float2float_rd(float x);
__aicore__ inline float __float2float_ru(float x);
__aicore__ inline float __float2float_rna(float x);
__aicore__ inline float __int2float_rn(int x);
__aicore__ inline float __int2float_rz(int x);
__aicore__ inline float __int2float_rd(int x);
__aicore__ inline float __int2float_ru(int x);
__aicore__ inline float __int2float_rna(int x);
__aicore__ inline float __uint2float_rn(unsigned int x);
__aicore__ inline float __uint2float_rz(unsigned int x);
__aicore__ inline float __uint2float_rd(unsigned int x);
__aicore__ inline float __uint2float_ru(unsigned int x);
__aicore__ inline float __uint2float_rna(unsigned int x);
__aicore__ inline float __ll2float_rn(long long x);
__aicore__ inline float __ll2float_rz(long long x);
__aicore__ inline float __ll2float_rd(long long x);
__aicore__ inline float __ll2float_ru(long long x);
__aicore__ inline float __ll2float_rna(long long x);
__aicore__ inline float __ull2float_rn(unsigned long long x);
__aicore__ inline float __ull2float_rz(unsigned long long x);
__aicore__ inline float __ull2float_rd(unsigned long long x);
__aicore__ inline float __ull2float_ru(unsigned long long x);
__aicore__ inline float __ull2float_rna(unsigned long long x);
__aicore__ inline int __float_as_int(float x);
__aicore__ inline unsigned int __float_as_uint(float x);
__aicore__ inline float __int_as_float(int x);
__aicore__ inline float __uint_as_float(unsigned int x);
__aicore__ inline void asc_nop();
template <typename T>
__aicore__ inline T asc_ldcg(__gm__ T* address);
template <typename T>
__aicore__ inline T asc_ldca(__gm__ T* address);
template <typename T>
__aicore__ inline void asc_stcg(__gm__ T* address, T value);
template <typename T>
__aicore__ inline void asc_stwt(__gm__ T* address, T value);
