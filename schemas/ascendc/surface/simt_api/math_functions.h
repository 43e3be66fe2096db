// curate AscendC surface: SIMT header math_functions.h.
//
// The scalar math of SIMT code (one thread per element): names and parameter types of the
// functions the AscendC SIMT interface declares; address-space variants of the pointer
// parameters are not repeated (the qualifiers are empty for this checker).
#pragma once
#include "ascendc/types.h"
#include "ascendc/simt.h"
#include "libc/cmath"
#include "simt_api/math_constants.h"

__aicore__ inline bool isfinite(float);
__aicore__ inline bool isinf(float);
__aicore__ inline bool isnan(float);
__aicore__ inline float acosf(float);
__aicore__ inline float acoshf(float);
__aicore__ inline float asinf(float);
__aicore__ inline float asinhf(float);
__aicore__ inline float atan2f(float, float);
__aicore__ inline float atanf(float);
__aicore__ inline float atanhf(float);
__aicore__ inline float cbrtf(float);
__aicore__ inline float ceilf(float);
__aicore__ inline float copysignf(float, float);
__aicore__ inline float cosf(float);
__aicore__ inline float coshf(float);
__aicore__ inline float cospif(float);
__aicore__ inline float cyl_bessel_i0f(float);
__aicore__ inline float cyl_bessel_i1f(float);
__aicore__ inline float erfcf(float);
__aicore__ inline float erfcinvf(float);
__aicore__ inline float erfcxf(float);
__aicore__ inline float erff(float);
__aicore__ inline float erfinvf(float);
__aicore__ inline float exp10f(float);
__aicore__ inline float exp2f(float);
__aicore__ inline float expf(float);
__aicore__ inline float expm1f(float);
__aicore__ inline float fabsf(float);
__aicore__ inline float fdimf(float, float);
__aicore__ inline float fdividef(float, float);
__aicore__ inline float floorf(float);
__aicore__ inline float fmaf(float, float, float);
__aicore__ inline float fmaxf(float, float);
__aicore__ inline float fminf(float, float);
__aicore__ inline float fmodf(float, float);
__aicore__ inline float frexpf(float, int*);
__aicore__ inline float hypotf(float, float);
__aicore__ inline float j0f(float);
__aicore__ inline float j1f(float);
__aicore__ inline float jnf(int, float);
__aicore__ inline float ldexpf(float, int);
__aicore__ inline float lgammaf(float);
__aicore__ inline float log10f(float);
__aicore__ inline float log1pf(float);
__aicore__ inline float log2f(float);
__aicore__ inline float logbf(float);
__aicore__ inline float logf(float);
__aicore__ inline float modff(float, float*);
__aicore__ inline float nearbyintf(float);
__aicore__ inline float nextafterf(float, float);
__aicore__ inline float norm3df(float, float, float);
__aicore__ inline float norm4df(float, float, float, float);
__aicore__ inline float normcdff(float);
__aicore__ inline float normcdfinvf(float);
__aicore__ inline float normf(int, float*);
__aicore__ inline float powf(float, float);
__aicore__ inline float rcbrtf(float);
__aicore__ inline float remainderf(float, float);
__aicore__ inline float remquof(float, float, int*);
__aicore__ inline float rhypotf(float, float);
__aicore__ inline float rintf(float);
__aicore__ inline float rnorm3df(float, float, float);
__aicore__ inline float rnorm4df(float, float, float, float);
__aicore__ inline float rnormf(int, float*);
__aicore__ inline float roundf(float);
__aicore__ inline float rsqrtf(float);
__aicore__ inline float scalblnf(float, int64_t);
__aicore__ inline float scalbnf(float, int32_t);
__aicore__ inline float sinf(float);
__aicore__ inline float sinhf(float);
__aicore__ inline float sinpif(float);
__aicore__ inline float sqrtf(float);
__aicore__ inline float tanf(float);
__aicore__ inline float tanhf(float);
__aicore__ inline float tanpif(float);
__aicore__ inline float tgammaf(float);
__aicore__ inline float truncf(float);
__aicore__ inline float y0f(float);
__aicore__ inline float y1f(float);
__aicore__ inline float ynf(int, float);
__aicore__ inline int ilogbf(float);
__aicore__ inline bool signbit(float);
__aicore__ inline long int labs(long int);
__aicore__ inline long int lrintf(float);
__aicore__ inline long int lroundf(float);
__aicore__ inline long long int llabs(long long int);
__aicore__ inline long long int llmax(const long long int, const long long int);
__aicore__ inline long long int llmin(const long long int, const long long int);
__aicore__ inline long long int llrintf(float);
__aicore__ inline long long int llroundf(float);
__aicore__ inline unsigned int umax(const unsigned int, const unsigned int);
__aicore__ inline unsigned int umin(const unsigned int, const unsigned int);
__aicore__ inline unsigned long long int ullmax(const unsigned long long int, const unsigned long long int);
__aicore__ inline unsigned long long int ullmin(const unsigned long long int, const unsigned long long int);
__aicore__ inline void sincosf(float, float*, float*);
__aicore__ inline void sincospif(float, float*, float*);
