// curate AscendC surface: vector instructions over local tensors.
//
// Most vector interfaces come in three shapes: a `count` form over the first `count` elements,
// and two "level 0" forms that take a bit mask (one word or an array of two words), a repeat
// count and stride parameters. The macros below write those shapes once per family.
#ifndef CURATE_ASCENDC_VEC_H
#define CURATE_ASCENDC_VEC_H

#include "ascendc/tensor.h"

namespace AscendC {

// ---- repeat/stride parameter records ------------------------------------------------------------
struct UnaryRepeatParams {
    __aicore__ UnaryRepeatParams() {}
    __aicore__ UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                                 const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn);
    __aicore__ UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                                 const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn, const bool halfBlockIn);
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
    bool halfBlock = false;
};
struct BinaryRepeatParams {
    __aicore__ BinaryRepeatParams() {}
    __aicore__ BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn,
                                  const uint8_t src1BlkStrideIn, const uint8_t dstRepStrideIn,
                                  const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn);
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
    uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
    bool repeatStrideMode = false;
    bool strideSizeMode = false;
};
struct BinaryConfig {
    int8_t scalarTensorIndex = 1;
};
constexpr BinaryConfig DEFAULT_BINARY_CONFIG = {1};
struct BinaryDefaultType {};
struct GatherRepeatParams {
    __aicore__ GatherRepeatParams() {}
    __aicore__ GatherRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t dstRepStrideIn);
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
};
struct BrcbRepeatParams {
    __aicore__ BrcbRepeatParams() {}
    __aicore__ BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn);
    uint32_t blockNumber = DEFAULT_BLK_NUM;
    uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
    uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
};
struct GatherMaskParams {
    __aicore__ GatherMaskParams() {}
    __aicore__ GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                                const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn);
    uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
    uint8_t src1RepeatStride = DEFAULT_REPEAT_STRIDE;
};
const GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;
struct TransDataTo5HDParams {
    constexpr __aicore__ TransDataTo5HDParams() = default;
    constexpr __aicore__ TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn,
                                              const uint8_t repeatTimesIn, const uint16_t dstRepStrideIn,
                                              const uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn),
          srcHighHalf(srcHighHalfIn),
          repeatTimes(repeatTimesIn),
          dstRepStride(dstRepStrideIn),
          srcRepStride(srcRepStrideIn)
    {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};
struct TransposeParamsExt {
    constexpr __aicore__ TransposeParamsExt() = default;
    constexpr __aicore__ TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn, const uint16_t hSizeIn,
                                            const uint16_t wSizeIn, const TransposeType transposeTypeIn)
        : nSize(nSizeIn), cSize(cSizeIn), hSize(hSizeIn), wSize(wSizeIn), transposeType(transposeTypeIn)
    {}
    uint16_t nSize = 0;
    uint16_t cSize = 0;
    uint16_t hSize = 0;
    uint16_t wSize = 0;
    TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};
constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;
struct VdeqInfo {
    static constexpr uint32_t VDEQ_TENSOR_SIZE = 16;
    float vdeqScale[VDEQ_TENSOR_SIZE] = {0};
    int16_t vdeqOffset[VDEQ_TENSOR_SIZE] = {0};
    bool vdeqSignMode[VDEQ_TENSOR_SIZE] = {0};
};

// ---- family shapes ------------------------------------------------------------------------------
#define CURATE_VEC_UNARY(Name)                                                                              \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask[],      \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams);           \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,        \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams);           \
    template <typename T>                                                                                   \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count)

#define CURATE_VEC_BINARY(Name)                                                                             \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,                      \
                                const LocalTensor<T>& src1, uint64_t mask[], const uint8_t repeatTime,      \
                                const BinaryRepeatParams& repeatParams);                                    \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,                      \
                                const LocalTensor<T>& src1, uint64_t mask, const uint8_t repeatTime,        \
                                const BinaryRepeatParams& repeatParams);                                    \
    template <typename T>                                                                                   \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0,                      \
                                const LocalTensor<T>& src1, const int32_t& count)

// Binary with a wider (or narrower) destination: dst<T> from src<U>.
#define CURATE_VEC_BINARY_MIXED(Name)                                                                       \
    template <typename T, typename U, bool isSetMask = true>                                                \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src0,                      \
                                const LocalTensor<U>& src1, uint64_t mask[], const uint8_t repeatTime,      \
                                const BinaryRepeatParams& repeatParams);                                    \
    template <typename T, typename U, bool isSetMask = true>                                                \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src0,                      \
                                const LocalTensor<U>& src1, uint64_t mask, const uint8_t repeatTime,        \
                                const BinaryRepeatParams& repeatParams);                                    \
    template <typename T, typename U>                                                                       \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src0,                      \
                                const LocalTensor<U>& src1, const uint32_t count)

// Tensor-scalar: the scalar is of the element type, or of any type convertible to it (newer
// toolchains), and may also come first.
#define CURATE_VEC_SCALAR(Name)                                                                             \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, \
                                uint64_t mask[], const uint8_t repeatTime,                                  \
                                const UnaryRepeatParams& repeatParams);                                     \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, \
                                uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams); \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, \
                                const int32_t& count);                                                      \
    template <typename T, typename U, bool isSetMask = true>                                                \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, \
                                uint64_t mask[], const uint8_t repeatTime,                                  \
                                const UnaryRepeatParams& repeatParams);                                     \
    template <typename T, typename U, bool isSetMask = true>                                                \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, \
                                uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams); \
    template <typename T, typename U, bool isSetMask = true>                                                \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& scalarValue, \
                                const int32_t& count);                                                      \
    template <typename T, typename U, bool isSetMask = true>                                                \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const U& scalarValue, const LocalTensor<T>& src, \
                                const int32_t& count)

// Newer cores add a precision/algorithm configuration as a trailing template argument.
#define CURATE_VEC_UNARY_CONFIG(Name, Config, Default)                                                    \
    CURATE_VEC_UNARY(Name);                                                                               \
    template <typename T, bool isSetMask, const Config& config>                                           \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,      \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams);         \
    template <typename T, const Config& config>                                                           \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count)

// ---- unary ------------------------------------------------------------------------------------
CURATE_VEC_UNARY_CONFIG(Exp, ExpConfig, DEFAULT_EXP_CONFIG);
CURATE_VEC_UNARY_CONFIG(Ln, LnConfig, DEFAULT_LN_CONFIG);
CURATE_VEC_UNARY(Abs);
CURATE_VEC_UNARY_CONFIG(Reciprocal, ReciprocalConfig, DEFAULT_RECIPROCAL_CONFIG);
CURATE_VEC_UNARY_CONFIG(Sqrt, SqrtConfig, DEFAULT_SQRT_CONFIG);
CURATE_VEC_UNARY_CONFIG(Rsqrt, RsqrtConfig, DEFAULT_RSQRT_CONFIG);
CURATE_VEC_UNARY(Not);
CURATE_VEC_UNARY(Relu);
template <typename T, typename U>
__aicore__ inline void Abs(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t& count);
template <typename T>
__aicore__ inline void Neg(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count);

// ---- binary -----------------------------------------------------------------------------------
CURATE_VEC_BINARY(Add);
CURATE_VEC_BINARY(Sub);
CURATE_VEC_BINARY(Mul);
CURATE_VEC_BINARY(Div);
template <typename T, const DivConfig& config>
__aicore__ inline void Div(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const int32_t& count);
CURATE_VEC_BINARY(Max);
CURATE_VEC_BINARY(Min);
CURATE_VEC_BINARY(And);
CURATE_VEC_BINARY(Or);
CURATE_VEC_BINARY(AddRelu);
CURATE_VEC_BINARY(SubRelu);
CURATE_VEC_BINARY(FusedMulAdd);
CURATE_VEC_BINARY(FusedMulAddRelu);
CURATE_VEC_BINARY(MulAddRelu);
CURATE_VEC_BINARY_MIXED(MulAddDst);
CURATE_VEC_BINARY_MIXED(AddDeqRelu);
CURATE_VEC_BINARY_MIXED(AddReluCast);
CURATE_VEC_BINARY_MIXED(SubReluCast);
CURATE_VEC_BINARY_MIXED(MulCast);
template <typename T>
__aicore__ inline void AbsSub(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              const uint32_t count);
template <typename T>
__aicore__ inline void FusedAbsSub(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                   const LocalTensor<T>& src1, const uint32_t count);
template <typename T, typename U>
__aicore__ inline void ExpSub(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1,
                              const uint32_t count);
template <typename T, typename U>
__aicore__ inline void FusedExpSub(const LocalTensor<T>& dst, const LocalTensor<U>& src0,
                                   const LocalTensor<U>& src1, const uint32_t count);
template <typename T>
__aicore__ inline void Prelu(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                             const uint32_t count);
template <typename T>
__aicore__ inline void Mull(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1, const LocalTensor<T>& src0,
                            const LocalTensor<T>& src1, const uint32_t count);

// ---- tensor-scalar ----------------------------------------------------------------------------
CURATE_VEC_SCALAR(Adds);
CURATE_VEC_SCALAR(Muls);
CURATE_VEC_SCALAR(Maxs);
CURATE_VEC_SCALAR(Mins);
CURATE_VEC_SCALAR(Subs);
CURATE_VEC_SCALAR(Divs);
CURATE_VEC_SCALAR(Ands);
CURATE_VEC_SCALAR(Ors);
CURATE_VEC_SCALAR(LeakyRelu);
CURATE_VEC_SCALAR(ShiftLeft);
CURATE_VEC_SCALAR(ShiftRight);
template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,
                                  uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,
                                  bool roundEn);
template <typename T, typename U>
__aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1,
                                 const int32_t& count);
template <typename T, typename U>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<U>& src1, const int32_t& count);
template <typename T0 = BinaryDefaultType, typename T1 = BinaryDefaultType, typename T2, typename T3, typename T4>
__aicore__ inline void MulsCast(const T2& dst, const T3& src0, const T4& src1, const uint32_t count);
template <typename T0 = BinaryDefaultType, typename T1 = BinaryDefaultType, typename T2, typename T3, typename T4>
__aicore__ inline void FusedMulsCast(const T2& dst, const T3& src0, const T4& src1, const uint32_t count);

// Axpy: dst += src * scalar (dst may be wider than src).
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue,
                            uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue,
                            uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams);
template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue,
                            const int32_t& count);

// ---- fill, index, broadcast -----------------------------------------------------------------------
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask,
                                 const uint8_t repeatTime, const uint16_t dstBlockStride,
                                 const uint8_t dstRepeatStride);
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask[],
                                 const uint8_t repeatTime, const uint16_t dstBlockStride,
                                 const uint8_t dstRepeatStride);
template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count);
template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count);
template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask[],
                                      uint8_t repeatTime, uint16_t dstBlkStride, uint8_t dstRepStride);
template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, uint64_t mask, uint8_t repeatTime,
                                      uint16_t dstBlkStride, uint8_t dstRepStride);
template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count);
template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t repeatTime,
                            const BrcbRepeatParams& repeatParams);
template <typename T>
__aicore__ inline void Interleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1,
                                  const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t count);
template <typename T>
__aicore__ inline void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1,
                                    const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t count);
template <typename T>
__aicore__ inline void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1,
                                    const LocalTensor<T>& src, const int32_t srcCount);
template <typename T, bool isSetMask = true>
__aicore__ inline void VectorPadding(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t padMode,
                                     const bool padSide, const uint64_t mask, const uint8_t repeatTime,
                                     const UnaryRepeatParams& repeatParams);
template <typename T>
__aicore__ inline void VectorPadding(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint8_t padMode,
                                     const bool padSide, const uint32_t count);

// ---- conversion -------------------------------------------------------------------------------
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams);
template <typename T, typename U>
__aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode,
                            const uint32_t count);
// Scalar conversions.
template <typename T, typename U, RoundMode roundMode>
__aicore__ inline U Cast(T valueIn);
__aicore__ inline bfloat16_t Cast(const float& fVal);
__aicore__ inline float Cast(const bfloat16_t& bVal);
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>
__aicore__ inline void CastDeq(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],
                               uint8_t repeatTime, const UnaryRepeatParams& repeatParams);
template <typename T, typename U, bool isSetMask = true, bool isVecDeq = true, bool halfBlock = true>
__aicore__ inline void CastDeq(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,
                               uint8_t repeatTime, const UnaryRepeatParams& repeatParams);
template <typename T, typename U, bool isVecDeq = true, bool halfBlock = true>
__aicore__ inline void CastDeq(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count);
template <typename T, RoundMode roundMode>
__aicore__ inline void Truncate(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count);
__aicore__ inline void SetDeqScale(half scale);
__aicore__ inline void SetDeqScale(float scale, int16_t offset, bool signMode);
template <typename T>
__aicore__ inline void SetDeqScale(const LocalTensor<T>& vdeq, const VdeqInfo& vdeqInfo);

// ---- compare and select -------------------------------------------------------------------------
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,
                               const BinaryRepeatParams& repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,
                               const BinaryRepeatParams& repeatParams);
template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, uint32_t count);
template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                               const uint64_t mask[], const BinaryRepeatParams& repeatParams);
template <typename T, bool isSetMask = true>
__aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                               const uint64_t mask, const BinaryRepeatParams& repeatParams);
#define CURATE_VEC_COMPARE_SCALAR(Name)                                                                     \
    template <typename T, typename U, bool isSetMask = true>                                                \
    __aicore__ inline void Name(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,  \
                                CMPMODE cmpMode, const uint64_t mask[], uint8_t repeatTime,                 \
                                const UnaryRepeatParams& repeatParams);                                     \
    template <typename T, typename U, bool isSetMask = true>                                                \
    __aicore__ inline void Name(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,  \
                                CMPMODE cmpMode, const uint64_t mask, uint8_t repeatTime,                   \
                                const UnaryRepeatParams& repeatParams);                                     \
    template <typename T, typename U>                                                                       \
    __aicore__ inline void Name(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar,  \
                                CMPMODE cmpMode, uint32_t count);                                           \
    template <typename T0 = BinaryDefaultType, typename T1 = BinaryDefaultType, bool isSetMask = true,      \
              typename T2, typename T3, typename T4>                                                        \
    __aicore__ inline void Name(const T2& dst, const T3& src0, const T4& src1, CMPMODE cmpMode,             \
                                uint32_t count)
CURATE_VEC_COMPARE_SCALAR(CompareScalar);
CURATE_VEC_COMPARE_SCALAR(Compares);
template <typename T>
__aicore__ inline void GetCmpMask(const LocalTensor<T>& dst);
template <typename T>
__aicore__ inline void SetCmpMask(const LocalTensor<T>& src);

template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint64_t mask[], uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams);
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint64_t mask, uint8_t repeatTime,
                              const BinaryRepeatParams& repeatParams);
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint32_t count);
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              T src1, SELMODE selMode, uint32_t count);
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              uint8_t repeatTime, const BinaryRepeatParams& repeatParams);
template <typename T, SELMODE selMode>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              uint8_t repeatTime, const BinaryRepeatParams& repeatParams);
template <typename T0 = BinaryDefaultType, typename T1 = BinaryDefaultType, typename T2, typename T3, typename T4>
__aicore__ inline void Select(const T2& dst, const LocalTensor<T1>& selMask, const T3& src0, const T4& src1,
                              SELMODE selMode, uint32_t count);

// ---- gather, scatter, masks ------------------------------------------------------------------------
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset,
                              const uint32_t count);
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset,
                              const uint64_t mask[], const uint8_t repeatTime, const uint16_t dstRepStride);
template <typename T>
__aicore__ inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                              const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseOffset,
                              const uint64_t mask, const uint8_t repeatTime, const uint16_t dstRepStride);
template <typename T>
__aicore__ inline void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                               const LocalTensor<uint32_t>& offset, const uint8_t repeatTime,
                               const GatherRepeatParams& repeatParams);
template <typename T>
__aicore__ inline void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                               const LocalTensor<uint32_t>& dstOffset, const uint32_t dstBaseAddr,
                               const uint32_t count);
template <typename T>
__aicore__ inline void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                               const LocalTensor<uint32_t>& dstOffset, const uint32_t dstBaseAddr,
                               const uint64_t mask, const uint8_t repeatTime, const uint8_t srcRepStride);
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                                  const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                                  uint64_t& rsvdCnt);
template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
__aicore__ inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                                  const LocalTensor<U>& src1Pattern, const bool reduceMode, const uint32_t mask,
                                  const GatherMaskParams& gatherMaskParams, uint64_t& rsvdCnt);

// ---- reductions ---------------------------------------------------------------------------------
#define CURATE_VEC_REDUCE_LEVEL2(Name)                                                                      \
    template <typename T>                                                                                   \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                       \
                                const LocalTensor<T>& sharedTmpBuffer, const int32_t count, bool calIndex = 0); \
    template <typename T>                                                                                   \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                       \
                                const LocalTensor<T>& sharedTmpBuffer, const int32_t mask,                  \
                                const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0);   \
    template <typename T>                                                                                   \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                       \
                                const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[],               \
                                const int32_t repeatTime, const int32_t srcRepStride, bool calIndex = 0)
CURATE_VEC_REDUCE_LEVEL2(ReduceMax);
CURATE_VEC_REDUCE_LEVEL2(ReduceMin);
template <typename T, bool isSetMask = true>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t count);
template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const int32_t mask, const int32_t repeatTime,
                                 const int32_t srcRepStride);
template <typename T>
__aicore__ inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<T>& sharedTmpBuffer, const uint64_t mask[],
                                 const int32_t repeatTime, const int32_t srcRepStride);

#define CURATE_VEC_REDUCE_LEVEL0(Name)                                                                      \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, \
                                const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride, \
                                const int32_t srcRepStride);                                                \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, \
                                const uint64_t mask[], const int32_t dstRepStride, const int32_t srcBlkStride, \
                                const int32_t srcRepStride)
CURATE_VEC_REDUCE_LEVEL0(BlockReduceSum);
CURATE_VEC_REDUCE_LEVEL0(BlockReduceMax);
CURATE_VEC_REDUCE_LEVEL0(BlockReduceMin);
CURATE_VEC_REDUCE_LEVEL0(PairReduceSum);

#define CURATE_VEC_WHOLE_REDUCE(Name, ...)                                                                  \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask,   \
                                const int32_t repeatTime, const int32_t dstRepStride,                       \
                                const int32_t srcBlkStride, const int32_t srcRepStride __VA_ARGS__);        \
    template <typename T, bool isSetMask = true>                                                            \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint64_t mask[], \
                                const int32_t repeatTime, const int32_t dstRepStride,                       \
                                const int32_t srcBlkStride, const int32_t srcRepStride __VA_ARGS__)
CURATE_VEC_WHOLE_REDUCE(WholeReduceSum);
CURATE_VEC_WHOLE_REDUCE(WholeReduceMax, , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX);
CURATE_VEC_WHOLE_REDUCE(WholeReduceMin, , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX);
template <typename T, bool isSetMask = true, typename U = T>
__aicore__ inline void WholeReduceSum(const LocalTensor<U>& dst, const LocalTensor<T>& src, const int32_t mask,
                                      const int32_t repeatTime, const int32_t dstRepStride,
                                      const int32_t srcBlkStride, const int32_t srcRepStride);
template <typename T, bool isSetMask = true>
__aicore__ inline void RepeatReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                       const int32_t repeatTime, const int32_t mask, const int32_t dstBlkStride,
                                       const int32_t srcBlkStride, const int32_t dstRepStride,
                                       const int32_t srcRepStride);
template <typename T>
__aicore__ inline void GetReduceMaxMinCount(T& maxMinValue);
template <typename T>
__aicore__ inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex);
template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T& maxMinValue);
template <typename T>
__aicore__ inline void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex);
template <typename T>
__aicore__ inline T GetReduceRepeatSumSpr();
template <typename T>
__aicore__ inline T GetAccVal();

// ---- transposes -------------------------------------------------------------------------------
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src);
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const TransposeParamsExt& transposeParams);
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams);
template <typename T>
__aicore__ inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                                      uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                                      const TransDataTo5HDParams& nchwconvParams);
template <typename T>
__aicore__ inline void TransDataTo5HD(const LocalTensor<uint64_t>& dst, const LocalTensor<uint64_t>& src,
                                      const TransDataTo5HDParams& nchwconvParams);

// ---- sorting with proposals (value, index) ------------------------------------------------------------
template <typename T>
struct MrgSortSrcList {
    __aicore__ MrgSortSrcList() {}
    __aicore__ MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In,
                              const LocalTensor<T>& src3In, const LocalTensor<T>& src4In);
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;
};
struct MrgSort4Info {
    __aicore__ MrgSort4Info() {}
    __aicore__ MrgSort4Info(const uint16_t elementLengthsIn[4], const bool ifExhaustedSuspensionIn,
                            const uint16_t validBitIn, const uint16_t repeatTimesIn);
    uint16_t elementLengths[4] = {0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint8_t repeatTimes = 1;
};
template <typename T>
__aicore__ inline uint32_t GetSortLen(const uint32_t elemCount);
template <typename T>
__aicore__ inline uint32_t GetSortOffset(const uint32_t elemOffset);
template <typename T>
__aicore__ inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                              const LocalTensor<uint32_t>& src1, const int32_t repeatTime);
template <typename T, bool isFullSort>
__aicore__ inline void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
                            LocalTensor<T>& tmp, const int32_t repeatTime);
template <typename T>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params);
template <typename T, bool isExhaustedSuspension = false>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList,
                               const uint16_t elementCountList[4], uint32_t sortedNum[4], uint16_t validBit,
                               const int32_t repeatTime);
template <typename T>
__aicore__ inline void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params);
template <typename T>
__aicore__ inline void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime);
template <typename T>
__aicore__ inline void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp,
                              const int32_t repeatTime);
template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex,
                               const LocalTensor<T>& sorted, const int32_t repeatTime);
template <typename T>
__aicore__ inline void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                      const int32_t modeNumber);
template <typename T>
__aicore__ inline void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                                       const int32_t modeNumber);
__aicore__ inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3,
                                        uint16_t& mrgSortList4);

}  // namespace AscendC

#endif  // CURATE_ASCENDC_VEC_H
