// curate AscendC surface: SIMT header vector_functions.h (short vector types and their makers).
//
// The vector types are built into the vendor compiler; the surface declares them as plain structs
// with the x, y, z, w members kernels read.
#pragma once
#include "ascendc/types.h"
#include "ascendc/simt.h"
#include "libc/cmath"

struct char2 { char x; char y; };
__aicore__ inline char2 make_char2(char x, char y);
struct char3 { char x; char y; char z; };
__aicore__ inline char3 make_char3(char x, char y, char z);
struct char4 { char x; char y; char z; char w; };
__aicore__ inline char4 make_char4(char x, char y, char z, char w);
struct uchar2 { unsigned char x; unsigned char y; };
__aicore__ inline uchar2 make_uchar2(unsigned char x, unsigned char y);
struct uchar3 { unsigned char x; unsigned char y; unsigned char z; };
__aicore__ inline uchar3 make_uchar3(unsigned char x, unsigned char y, unsigned char z);
struct uchar4 { unsigned char x; unsigned char y; unsigned char z; unsigned char w; };
__aicore__ inline uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w);
struct short2 { short x; short y; };
__aicore__ inline short2 make_short2(short x, short y);
struct short3 { short x; short y; short z; };
__aicore__ inline short3 make_short3(short x, short y, short z);
struct short4 { short x; short y; short z; short w; };
__aicore__ inline short4 make_short4(short x, short y, short z, short w);
struct ushort2 { unsigned short x; unsigned short y; };
__aicore__ inline ushort2 make_ushort2(unsigned short x, unsigned short y);
struct ushort3 { unsigned short x; unsigned short y; unsigned short z; };
__aicore__ inline ushort3 make_ushort3(unsigned short x, unsigned short y, unsigned short z);
struct ushort4 { unsigned short x; unsigned short y; unsigned short z; unsigned short w; };
__aicore__ inline ushort4 make_ushort4(unsigned short x, unsigned short y, unsigned short z, unsigned short w);
struct int2 { int x; int y; };
__aicore__ inline int2 make_int2(int x, int y);
struct int3 { int x; int y; int z; };
__aicore__ inline int3 make_int3(int x, int y, int z);
struct int4 { int x; int y; int z; int w; };
__aicore__ inline int4 make_int4(int x, int y, int z, int w);
struct uint2 { unsigned int x; unsigned int y; };
__aicore__ inline uint2 make_uint2(unsigned int x, unsigned int y);
struct uint3 { unsigned int x; unsigned int y; unsigned int z; };
__aicore__ inline uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z);
struct uint4 { unsigned int x; unsigned int y; unsigned int z; unsigned int w; };
__aicore__ inline uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w);
struct long2 { long x; long y; };
__aicore__ inline long2 make_long2(long x, long y);
struct long3 { long x; long y; long z; };
__aicore__ inline long3 make_long3(long x, long y, long z);
struct long4 { long x; long y; long z; long w; };
__aicore__ inline long4 make_long4(long x, long y, long z, long w);
struct ulong2 { unsigned long x; unsigned long y; };
__aicore__ inline ulong2 make_ulong2(unsigned long x, unsigned long y);
struct ulong3 { unsigned long x; unsigned long y; unsigned long z; };
__aicore__ inline ulong3 make_ulong3(unsigned long x, unsigned long y, unsigned long z);
struct ulong4 { unsigned long x; unsigned long y; unsigned long z; unsigned long w; };
__aicore__ inline ulong4 make_ulong4(unsigned long x, unsigned long y, unsigned long z, unsigned long w);
struct longlong2 { long long x; long long y; };
__aicore__ inline longlong2 make_longlong2(long long x, long long y);
struct longlong3 { long long x; long long y; long long z; };
__aicore__ inline longlong3 make_longlong3(long long x, long long y, long long z);
struct longlong4 { long long x; long long y; long long z; long long w; };
__aicore__ inline longlong4 make_longlong4(long long x, long long y, long long z, long long w);
struct ulonglong2 { unsigned long long x; unsigned long long y; };
__aicore__ inline ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y);
struct ulonglong3 { unsigned long long x; unsigned long long y; unsigned long long z; };
__aicore__ inline ulonglong3 make_ulonglong3(unsigned long long x, unsigned long long y, unsigned long long z);
struct ulonglong4 { unsigned long long x; unsigned long long y; unsigned long long z; unsigned long long w; };
__aicore__ inline ulonglong4 make_ulonglong4(unsigned long long x, unsigned long long y, unsigned long long z, unsigned long long w);
struct float2 { float x; float y; };
__aicore__ inline float2 make_float2(float x, float y);
struct float3 { float x; float y; float z; };
__aicore__ inline float3 make_float3(float x, float y, float z);
struct float4 { float x; float y; float z; float w; };
__aicore__ inline float4 make_float4(float x, float y, float z, float w);

// Element-wise arithmetic of the floating-point vectors, with each other and with a scalar.
#define CURATE_SIMT_VECTOR_OPS(V)                                   \
    __aicore__ inline V operator+(const V& a, const V& b);          \
    __aicore__ inline V operator-(const V& a, const V& b);          \
    __aicore__ inline V operator*(const V& a, const V& b);          \
    __aicore__ inline V operator/(const V& a, const V& b);          \
    __aicore__ inline V operator*(const V& a, float s);             \
    __aicore__ inline V operator*(float s, const V& a);             \
    __aicore__ inline V operator+(const V& a, float s);             \
    __aicore__ inline V operator-(const V& a, float s);             \
    __aicore__ inline V operator/(const V& a, float s);            \
    __aicore__ inline V& operator+=(V& a, const V& b);              \
    __aicore__ inline V& operator-=(V& a, const V& b);              \
    __aicore__ inline V& operator*=(V& a, const V& b);              \
    __aicore__ inline V& operator*=(V& a, float s);
CURATE_SIMT_VECTOR_OPS(float2)
CURATE_SIMT_VECTOR_OPS(float3)
CURATE_SIMT_VECTOR_OPS(float4)
#undef CURATE_SIMT_VECTOR_OPS
