// curate AscendC surface: advanced library interfaces (math, activation, reduction, sort,
// normalisation, quantisation, broadcast, padding).
//
// The elementwise math functions share one shape: (dst, src[, sharedTmpBuffer][, calCount]).
// Interfaces whose parameter records the surface does not model (softmax, quantisation, ...) are
// declared with a trailing parameter pack: their names and template parameters are checked,
// their argument lists are not.
#ifndef CURATE_ASCENDC_ADV_H
#define CURATE_ASCENDC_ADV_H

#include "ascendc/vec.h"
#include "ascendc/cube.h"

namespace AscendC {

// ---- configuration records ------------------------------------------------------------------------
struct PhiloxRandomParams {
    uint32_t stride = 0;
    uint32_t row = 0;
    uint32_t column = 0;
};
struct MathConfig {
    bool isReuseSource = false;
};
#define CURATE_CONFIG(Name, Default) \
    struct Name {                    \
        int32_t algo = 0;            \
    };                               \
    constexpr Name Default = {}
CURATE_CONFIG(SinConfig, defaultSinConfig);
// Cos chooses its algorithm (Ascend950 generation).
enum class CosAlgo { POLYNOMIAL_APPROXIMATION = 0, RADIAN_REDUCTION };
struct CosConfig {
    CosAlgo algo = CosAlgo::POLYNOMIAL_APPROXIMATION;
};
constexpr CosConfig defaultCosConfig;
CURATE_CONFIG(TanhConfig, DEFAULT_TANH_CONFIG);
CURATE_CONFIG(AtanConfig, defaultAtanConfig);
CURATE_CONFIG(FmodConfig, DEFAULT_FMOD_CONFIG);
CURATE_CONFIG(ClampConfig, DEFAULT_CLAMP_CONFIG);
CURATE_CONFIG(FmaConfig, DEFAULT_FMA_CONFIG);
CURATE_CONFIG(RintConfig, DEFAULT_RINT_CONFIG);
CURATE_CONFIG(IsNanConfig, DEFAULT_IS_NAN_CONFIG);
CURATE_CONFIG(IsInfConfig, DEFAULT_IS_INF_CONFIG);
// CumSum: which axis, whether the last row is also written, and the scan algorithm.
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, true};
enum class SortType { RADIX_SORT = 0, MERGE_SORT };
struct SortConfig {
    SortType type = SortType::RADIX_SORT;
    bool isDescend = false;
};
constexpr SortConfig DEFAULT_SORT_CONFIG = {SortType::RADIX_SORT, false};
enum class TopKAlgo { RADIX_SELECT = 0, MERGE_SORT };
enum class TopKOrder { UNSET = 0, LARGEST, SMALLEST };
struct TopKConfig {
    TopKAlgo algo = TopKAlgo::RADIX_SELECT;
    TopKOrder order = TopKOrder::UNSET;
    bool sorted = true;
};
constexpr TopKConfig defaultTopKConfig = {};
CURATE_CONFIG(BitwiseAndConfig, DEFAULT_BITWISE_AND_CONFIG);
CURATE_CONFIG(BitwiseOrConfig, DEFAULT_BITWISE_OR_CONFIG);
CURATE_CONFIG(BitwiseXorConfig, DEFAULT_BITWISE_XOR_CONFIG);
CURATE_CONFIG(BitwiseNotConfig, DEFAULT_BITWISE_NOT_CONFIG);
CURATE_CONFIG(LogicalAndConfig, DEFAULT_LOGICAL_AND_CONFIG);
CURATE_CONFIG(LogicalOrConfig, DEFAULT_LOGICAL_OR_CONFIG);
CURATE_CONFIG(LogicalXorConfig, DEFAULT_LOGICAL_XOR_CONFIG);
CURATE_CONFIG(LogicalNotConfig, DEFAULT_LOGICAL_NOT_CONFIG);
CURATE_CONFIG(LogicalAndsConfig, DEFAULT_LOGICAL_ANDS_CONFIG);
CURATE_CONFIG(LogicalOrsConfig, DEFAULT_LOGICAL_ORS_CONFIG);
enum class PowerAlgo { INTRINSIC = 0, DOUBLE_FLOAT_TECH };
struct PowerConfig {
    PowerAlgo algo = PowerAlgo::INTRINSIC;
};
constexpr PowerConfig defaultPowerConfig = {};
enum class TopKMode { TOPK_NORMAL = 0, TOPK_NSMALL };
struct TopKInfo {
    int32_t outter = 1;
    int32_t inner = 32;
    int32_t n = 32;
};
struct TopkTiling {
    int32_t tmpLocalSize = 0;
    int32_t allDataSize = 0;
    int32_t innerDataSize = 0;
    uint32_t sortRepeat = 0;
    int32_t mrgSortRepeat = 0;
    int32_t kAlignFourBytes = 0;
    int32_t kAlignTwoBytes = 0;
    int32_t maskOffset = 0;
    int32_t maskVreducev2FourBytes = 0;
    int32_t maskVreducev2TwoBytes = 0;
    int32_t mrgSortSrc1offset = 0;
    int32_t mrgSortSrc2offset = 0;
    int32_t mrgSortSrc3offset = 0;
    int32_t mrgSortTwoQueueSrc1Offset = 0;
    int32_t mrgFourQueueTailPara1 = 0;
    int32_t mrgFourQueueTailPara2 = 0;
    int32_t srcIndexOffset = 0;
    uint32_t copyUbToUbBlockCount = 0;
    int32_t topkMrgSrc1MaskSizeOffset = 0;
    int32_t topkNSmallSrcIndexOffset = 0;
    uint32_t vreduceValMask0 = 0;
    uint32_t vreduceValMask1 = 0;
    uint32_t vreduceIdxMask0 = 0;
    uint32_t vreduceIdxMask1 = 0;
    uint16_t vreducehalfValMask0 = 0;
    uint16_t vreducehalfValMask1 = 0;
    uint16_t vreducehalfValMask2 = 0;
    uint16_t vreducehalfValMask3 = 0;
    uint16_t vreducehalfValMask4 = 0;
    uint16_t vreducehalfValMask5 = 0;
    uint16_t vreducehalfValMask6 = 0;
    uint16_t vreducehalfValMask7 = 0;
};
struct SumParams {
    uint32_t outter = 1;
    uint32_t inner = 0;
    uint32_t n = 0;
};
struct MeanParams {
    uint32_t outter = 1;
    uint32_t inner = 0;
    uint32_t n = 0;
};
struct CumSumInfo {
    uint32_t outter = 0;
    uint32_t inner = 0;
};
using PhiloxKey = uint32_t[2];
using PhiloxCounter = uint32_t[4];
template <uint16_t Rounds = 7, typename T>
__aicore__ inline void PhiloxRandom(const LocalTensor<T>& dstLocal, const PhiloxKey& philoxKey,
                                    const PhiloxCounter& philoxCounter, uint16_t count);
template <uint16_t Rounds = 7, typename T>
__aicore__ inline void PhiloxRandom(const LocalTensor<T>& dstLocal, const PhiloxKey& philoxKey,
                                    const PhiloxCounter& philoxCounter, const PhiloxRandomParams& params);
namespace Pattern {
namespace Reduce {
struct AR {};
struct RA {};
struct R {};
struct ARA {};
struct ARAR {};
struct RAR {};
struct RARA {};
}  // namespace Reduce
}  // namespace Pattern
struct SoftMaxTiling {
    uint32_t srcM = 0, srcK = 0, srcSize = 0, outMaxM = 0, outMaxK = 0, outMaxSize = 0;
    uint32_t splitM = 0, splitK = 0, splitSize = 0, reduceM = 0, reduceK = 0, reduceSize = 0;
    uint32_t rangeM = 0, tailM = 0, tailSplitSize = 0, tailReduceSize = 0;
};
struct SoftMaxShapeInfo {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
};
// Statistics of the FlashAttention-3 softmax (SoftmaxFlashV3).
struct SoftMaxParams {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
    uint32_t loopCnt{1};
    uint32_t splitMeanCnt{8};
    float alpha{0.9375};
};
// Normalisation records: the template configuration and the runtime shape of LayerNorm, Normalize
// and the Welford statistics.
enum class ReducePattern : uint32_t {
    AR = 0,
    RA = 1,
    R,
    ARA,
    ARAR,
    ARARA,
    ARARAR,
    ARARARA,
    ARARARAR,
    ARARARARA,
    RAR,
    RARA,
    RARAR,
    RARARA,
    RARARAR,
    RARARARA,
};
struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {};
struct LayerNormPara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};
struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};
constexpr NormalizeConfig NLCFG_NOBETA = {ReducePattern::AR, -1, true, false, false};
constexpr NormalizeConfig NLCFG_NOGAMMA = {ReducePattern::AR, -1, false, true, false};
constexpr NormalizeConfig NLCFG_NOOPT = {ReducePattern::AR, -1, true, true, false};
struct NormalizePara {
    uint32_t aLength;
    uint32_t rLength;
    uint32_t rLengthWithPadding;
};
// The Welford configurations have a converting constructor only: `= {true}` works, `{}` does not.
struct WelfordUpdateConfig {
    __aicore__ constexpr WelfordUpdateConfig(const bool isInplaceIn) : isInplace(isInplaceIn) {}
    bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};
struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};
struct WelfordFinalizeConfig {
    __aicore__ constexpr WelfordFinalizeConfig(const bool isCorrectionIn) : isCorrection(isCorrectionIn) {}
    bool isCorrection = false;
};
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};
struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510 || __NPU_ARCH__ == 5102)
    float rRecWithCorrection;  // the variance correction exists from the Ascend950 generation on
#endif
};
struct LayerNormTiling {
    uint32_t bLength = 0, sLength = 0, hLength = 0, originalHLength = 0, inputXSize = 0, meanVarSize = 0;
    uint32_t numberOfTmpBuf = 0, meanTmpTensorPos = 0, meanTmpTensorSize = 0, varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0, tmpBufSize = 0, oneTmpSize = 0, firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0, thirdTmpStartPos = 0, loopRound = 0, inputRoundSize = 0, inputTailSize = 0;
    uint32_t inputTailPos = 0, meanVarRoundSize = 0, meanVarTailSize = 0, meanVarTailPos = 0, bshCurLength = 0;
    uint32_t bsCurLength = 0;
    float lastDimValueBack = 0;
};
struct LayerNormSeparateTiling {
    uint32_t aLength = 0, rLength = 0, halfAddRepeatTimes = 0, rHeadLength = 0;
    float k2Rec = 0, k2RRec = 0;
    uint32_t inputXSize = 0, meanVarSize = 0, numberOfTmpBuf = 0, varianceTmpTensorPos = 0;
    uint32_t varianceTmpTensorSize = 0, tmpBufSize = 0, oneTmpSize = 0, firstTmpStartPos = 0;
    uint32_t secondTmpStartPos = 0, thirdTmpStartPos = 0, loopRound = 0, inputRoundSize = 0, inputTailSize = 0;
    uint32_t inputTailPos = 0, meanVarRoundSize = 0, meanVarTailSize = 0, meanVarTailPos = 0, arCurLength = 0;
    uint32_t aCurLength = 0;
    float rValueBack = 0;
};
struct SelectWithBytesMaskShapeInfo {
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
struct ConfusionTransposeTiling {
    uint32_t param0 = 0, param1 = 0, param2 = 0, param3 = 0, param4 = 0, param5 = 0, param6 = 0, param7 = 0;
    uint32_t param8 = 0, param9 = 0, param10 = 0, param11 = 0, param12 = 0, param13 = 0, param14 = 0;
    uint32_t param15 = 0, param16 = 0, param17 = 0;
};
struct PadParams {
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};
// UnPad removes rightPad/leftPad elements from each row (constructible from the two counts).
struct UnPadParams {
    __aicore__ UnPadParams() {}
    __aicore__ UnPadParams(const uint16_t leftPadIn, const uint16_t rightPadIn)
        : leftPad(leftPadIn), rightPad(rightPadIn)
    {}
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};
struct UnPadTiling {
    uint32_t srcHeight = 0, srcWidth = 0, tmpBuffer1BlockNum = 0, tmpBuffer1RowNum = 0, tmpBuffer2Offset = 0;
    uint32_t widthTiling = 0, widthFractal = 0, widthFractalTail = 0;
};
// TransData: the source and destination formats are a template argument, the layouts a runtime one.
struct TransDataConfig {
    DataFormat srcFormat;
    DataFormat dstFormat;
};
template <typename T, typename U>
struct TransDataParams {
    T srcLayout;
    U dstLayout;
};
struct PadTiling {
    uint32_t srcHeight = 0, srcWidth = 0, srcOriWidth = 0, widthWithoutLastBlock = 0, blocksPerRow = 0;
    uint32_t heightTiling = 0, heightFractal = 0, heightFractalTail = 0, mainLoopOffset = 0, tailBlockOffset = 0;
    uint32_t tmpBuffer1BlockNum = 0, tmpBuffer1RowNum = 0, tmpBuffer2Offset = 0, widthTiling = 0;
    uint32_t widthFractal = 0, widthFractalTail = 0, widthFractalTailAlingned = 0, brcbTiling = 0, brcbFractal = 0;
    uint32_t brcbFractalTail = 0, maxRepeatTimes = 0, brcbTilingRepeatTimes = 0, brcbTilingRepeatTimesTail = 0;
    uint32_t brcbFractalTailRepeatTimes = 0, brcbFractalTailRepeatTimesTail = 0, reserved = 0;
};
// The generated kernel tiling header puts these in AscendC::tiling.
namespace tiling {
using AscendC::ConfusionTransposeTiling;
using AscendC::LayerNormSeparateTiling;
using AscendC::LayerNormTiling;
using AscendC::PadTiling;
using AscendC::SoftMaxTiling;
using AscendC::TopkTiling;
using AscendC::UnPadTiling;
}  // namespace tiling

// Host tiling library (softmax family): the shape is a ge::Shape, which kernels never see, so an
// opaque name stands for it; the tiling record is filled in place.
class TensorShape;
void SoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                       SoftMaxTiling& softmaxTiling);
void SoftMaxFlashTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                            const uint32_t localWorkSpaceSize, SoftMaxTiling& softmaxFlashTiling,
                            const bool isUpdate = false);
void SoftMaxFlashV2TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize, SoftMaxTiling& softmaxFlashTiling,
                              const bool isUpdate, const bool isBasicBlock = false,
                              const bool isFlashOutputBrc = false);
void SoftMaxFlashV3TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize, SoftMaxTiling& softmaxFlashV3Tiling,
                              const bool isUpdate, const bool isBasicBlock = false);
void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                           SoftMaxTiling& softmaxGradTiling, const bool isFront = false);

// ---- elementwise math: (dst, src[, tmp][, calCount]) ------------------------------------------------
#define CURATE_ADV_UNARY(Name)                                                                                  \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor);             \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,              \
                                const LocalTensor<uint8_t>& sharedTmpBuffer);                                  \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,              \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount);         \
    template <typename T, bool isReuseSource = false>                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,              \
                                const uint32_t calCount)
CURATE_ADV_UNARY(Sin);
CURATE_ADV_UNARY(Cos);
CURATE_ADV_UNARY(Tan);
CURATE_ADV_UNARY(Asin);
CURATE_ADV_UNARY(Acos);
CURATE_ADV_UNARY(Atan);
CURATE_ADV_UNARY(Sinh);
CURATE_ADV_UNARY(Cosh);
CURATE_ADV_UNARY(Tanh);
CURATE_ADV_UNARY(Asinh);
CURATE_ADV_UNARY(Acosh);
CURATE_ADV_UNARY(Atanh);
CURATE_ADV_UNARY(Erf);
CURATE_ADV_UNARY(Erfc);
CURATE_ADV_UNARY(Sign);
CURATE_ADV_UNARY(Frac);
CURATE_ADV_UNARY(Trunc);
CURATE_ADV_UNARY(Floor);
CURATE_ADV_UNARY(Ceil);
CURATE_ADV_UNARY(Round);
CURATE_ADV_UNARY(Rint);
CURATE_ADV_UNARY(Log);
CURATE_ADV_UNARY(Log2);
CURATE_ADV_UNARY(Log10);
CURATE_ADV_UNARY(Lgamma);
CURATE_ADV_UNARY(Digamma);
CURATE_ADV_UNARY(Sigmoid);
CURATE_ADV_UNARY(Silu);
CURATE_ADV_UNARY(Expm1);
CURATE_ADV_UNARY(Log1p);
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount);
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount);

// Binary math with an optional temporary buffer.
#define CURATE_ADV_BINARY(Name)                                                                                  \
    template <typename T, bool isReuseSource = false>                                                           \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,              \
                                const LocalTensor<T>& src1Tensor);                                              \
    template <typename T, bool isReuseSource = false>                                                           \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,              \
                                const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer); \
    template <typename T, bool isReuseSource = false>                                                           \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,              \
                                const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,  \
                                const uint32_t calCount);                                                       \
    template <typename T, bool isReuseSource = false>                                                           \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,              \
                                const LocalTensor<T>& src1Tensor, const uint32_t calCount)
CURATE_ADV_BINARY(Xor);
CURATE_ADV_BINARY(Fmod);
CURATE_ADV_BINARY(Hypot);
CURATE_ADV_BINARY(Atan2);
// Power: tensor^tensor, tensor^scalar or scalar^tensor.
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig, typename U,
          typename V>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const U& src0, const V& src1);
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig, typename U,
          typename V>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const U& src0, const V& src1, uint32_t calCount);
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig, typename U,
          typename V>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const U& src0, const V& src1,
                             const LocalTensor<uint8_t>& sharedTmpBuffer);
template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig, typename U,
          typename V>
__aicore__ inline void Power(const LocalTensor<T>& dstTensor, const U& src0, const V& src1,
                             const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount);

// Clamping, predicates, logic.
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount);
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                                const uint32_t calCount);
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount);
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                                const uint32_t calCount);
template <const ClampConfig& config = DEFAULT_CLAMP_CONFIG, typename T, typename U, typename S>
__aicore__ inline void Clamp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const U& min, const S& max,
                             const uint32_t count);
template <typename T, typename U, typename S, typename V>
__aicore__ inline void Where(const LocalTensor<T>& dst, const U& src0, const S& src1, const LocalTensor<V>& condition,
                             const uint32_t count);
template <const FmaConfig& config = DEFAULT_FMA_CONFIG, typename T>
__aicore__ inline void Fma(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const LocalTensor<T>& src2, const uint32_t count);
template <const FmaConfig& config = DEFAULT_FMA_CONFIG, typename T>
__aicore__ inline void Fma(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                           const LocalTensor<T>& src2, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const uint32_t count);
#define CURATE_ADV_PREDICATE(Name)                                                                              \
    template <typename T, typename U>                                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count);   \
    template <typename T, typename U>                                                                          \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src,                          \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t count)
CURATE_ADV_PREDICATE(IsNan);
CURATE_ADV_PREDICATE(IsInf);
CURATE_ADV_PREDICATE(IsFinite);
CURATE_ADV_PREDICATE(LogicalNot);
template <typename T, typename U>
__aicore__ inline void BitwiseNot(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint32_t count);
#define CURATE_ADV_LOGIC2(Name)                                                                                  \
    template <typename T, typename U>                                                                           \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src0, const LocalTensor<U>& src1, \
                                const uint32_t count)
CURATE_ADV_LOGIC2(LogicalAnd);
CURATE_ADV_LOGIC2(LogicalOr);
CURATE_ADV_LOGIC2(LogicalXor);
CURATE_ADV_LOGIC2(BitwiseAnd);
CURATE_ADV_LOGIC2(BitwiseOr);
CURATE_ADV_LOGIC2(BitwiseXor);
template <typename T, typename U, typename S>
__aicore__ inline void LogicalAnds(const LocalTensor<T>& dst, const U& src0, const S& src1, const uint32_t count);
template <typename T, typename U, typename S>
__aicore__ inline void LogicalOrs(const LocalTensor<T>& dst, const U& src0, const S& src1, const uint32_t count);
template <typename T, bool isReuseSource = false>
__aicore__ inline void SinCos(const LocalTensor<T>& dstSin, const LocalTensor<T>& dstCos, const LocalTensor<T>& src,
                              const uint32_t calCount);
template <typename T, bool isReuseSource = false>
__aicore__ inline void SinCos(const LocalTensor<T>& dstSin, const LocalTensor<T>& dstCos, const LocalTensor<T>& src,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount);
template <typename T, typename U, bool isReuseSource = false>
__aicore__ inline void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount);

// Activations.
template <typename T, bool highPrecision = false, bool highPerformance = false>
__aicore__ inline void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t dataSize);
template <typename T, bool highPrecision = false, bool highPerformance = false>
__aicore__ inline void Gelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize);
template <typename T, bool highPrecision = false, bool highPerformance = false>
__aicore__ inline void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                  const uint32_t dataSize);
template <typename T, bool highPrecision = false, bool highPerformance = false>
__aicore__ inline void FasterGelu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                  const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize);
template <typename T, bool isReuseSource = false>
__aicore__ inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
                             const T scalarValue);
#define CURATE_ADV_OPEN(Name)                                  \
    template <typename T, typename... CurateRest>              \
    __aicore__ inline void Name(const LocalTensor<T>& dst, CurateRest&&... rest)
CURATE_ADV_OPEN(SwiGLU);
CURATE_ADV_OPEN(GeGLU);
CURATE_ADV_OPEN(ReGlu);
CURATE_ADV_OPEN(FasterGeluV2);
CURATE_ADV_OPEN(DropOut);

// Reductions over a pattern (AR = reduce the last axis, RA = the first), and Sum/Mean over rows.
#define CURATE_ADV_REDUCE(Name)                                                                                 \
    template <class T, class pattern, bool isReuseSource = false>                                              \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,              \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[],        \
                                bool srcInnerPad);                                                             \
    template <class T, class pattern, bool isReuseSource = false>                                              \
    __aicore__ inline void Name(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,              \
                                const uint32_t srcShape[], bool srcInnerPad)
CURATE_ADV_REDUCE(ReduceSum);
CURATE_ADV_REDUCE(ReduceMax);
CURATE_ADV_REDUCE(ReduceMin);
CURATE_ADV_REDUCE(ReduceMean);
CURATE_ADV_REDUCE(ReduceProd);
CURATE_ADV_REDUCE(ReduceAny);
CURATE_ADV_REDUCE(ReduceAll);
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams);
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams);
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                            const MeanParams& meanParams);
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const MeanParams& meanParams);
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              const CumSumInfo& cumSumInfo);
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo);
template <typename T, bool isReuseSource = false>
__aicore__ inline void ReduceXorSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                    const LocalTensor<T>& src1Tensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false>
__aicore__ inline void ReduceXorSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                                    const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                    const uint32_t calCount);

// Sorting and selection (library versions; the proposal primitives live in vec.h).
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
__aicore__ inline void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
__aicore__ inline void Sort(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount);
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
__aicore__ inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<uint32_t>& dstIndexTensor,
                            const LocalTensor<T>& srcTensor, const uint32_t calCount);
template <typename T, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
__aicore__ inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<uint32_t>& dstIndexTensor,
                            const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t calCount);
template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
__aicore__ inline void Sort(const LocalTensor<T>& dstTensor, const LocalTensor<U>& dstIndexTensor,
                            const LocalTensor<T>& srcTensor, const LocalTensor<U>& srcIndexTensor,
                            const uint32_t calCount);
template <typename T, typename U, bool isReuseSource = false, const SortConfig& config = DEFAULT_SORT_CONFIG>
__aicore__ inline void Sort(LocalTensor<T>& dstTensor, LocalTensor<U>& dstIndexTensor, const LocalTensor<T>& srcTensor,
                            const LocalTensor<U>& srcIndexTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const uint32_t calCount);
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          TopKMode topkMode = TopKMode::TOPK_NORMAL, typename... CurateRest>
__aicore__ inline void TopK(const LocalTensor<T>& dstValueLocal, const LocalTensor<int32_t>& dstIndexLocal,
                            const LocalTensor<T>& srcLocal, CurateRest&&... rest);

// Index generation, broadcast, padding, transpose.
template <typename T>
__aicore__ inline void ArithProgression(const LocalTensor<T>& dstLocal, const T firstValue, const T diffValue,
                                        const int32_t count);
template <typename T>
__aicore__ inline void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count);
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim]);
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t>& sharedTmpBuffer);
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim]);
template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim], const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t>& sharedTmpBuffer);
template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           PadTiling& tiling);
template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling);
template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                             UnPadParams& unPadParams, LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling);
template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                             UnPadParams& unPadParams, UnPadTiling& tiling);
template <const TransDataConfig& config, typename T, typename U, typename S>
__aicore__ inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const TransDataParams<U, S>& params);
template <const TransDataConfig& config, typename T, typename U, typename S>
__aicore__ inline void TransData(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                 const TransDataParams<U, S>& params);
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src, TransposeType transposeType,
                                 ConfusionTransposeTiling& tiling);
template <typename T>
__aicore__ inline void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, TransposeType transposeType,
                                 ConfusionTransposeTiling& tiling);
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, T src1,
                              const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                              const SelectWithBytesMaskShapeInfo& info);
template <typename T, typename U, bool isReuseMask = true>
__aicore__ inline void Select(const LocalTensor<T>& dst, T src0, const LocalTensor<T>& src1,
                              const LocalTensor<U>& mask, const LocalTensor<uint8_t>& sharedTmpBuffer,
                              const SelectWithBytesMaskShapeInfo& info);

// Normalisation: LayerNorm (the older variance form and the rstd form with a configuration),
// Normalize with precomputed statistics, and the Welford online statistics.
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                                 LayerNormTiling& tiling);
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
                                 LayerNormTiling& tiling);
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LayerNormPara& para, const LayerNormSeparateTiling& tiling);
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
                                 const LayerNormSeparateTiling& tiling);
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon,
                                 const NormalizePara& para);
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const float epsilon, const NormalizePara& para);
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const WelfordUpdateParam& para);
template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     const WelfordUpdateParam& para);
// WelfordFinalize takes the configuration from the Ascend950 generation on; earlier ones only
// isReuseSource, which the same declaration accepts.
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para);
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                       WelfordFinalizePara& para);
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       WelfordFinalizePara& para);
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts, WelfordFinalizePara& para);

// Softmax, quantisation, random numbers: names and template parameters only.
CURATE_ADV_OPEN(SoftMax);
CURATE_ADV_OPEN(SimpleSoftMax);
CURATE_ADV_OPEN(LogSoftMax);
CURATE_ADV_OPEN(SoftmaxFlash);
CURATE_ADV_OPEN(SoftmaxFlashV2);
CURATE_ADV_OPEN(SoftmaxFlashV3);
CURATE_ADV_OPEN(SoftmaxGrad);
CURATE_ADV_OPEN(SoftmaxGradFront);
CURATE_ADV_OPEN(LayerNormGrad);
CURATE_ADV_OPEN(LayerNormGradBeta);
CURATE_ADV_OPEN(RmsNorm);
CURATE_ADV_OPEN(DeepNorm);
CURATE_ADV_OPEN(BatchNorm);
CURATE_ADV_OPEN(GroupNorm);
CURATE_ADV_OPEN(AscendQuant);
CURATE_ADV_OPEN(AscendDequant);
CURATE_ADV_OPEN(AscendAntiQuant);
CURATE_ADV_OPEN(Quantize);
CURATE_ADV_OPEN(Dequantize);
CURATE_ADV_OPEN(AntiQuantize);
CURATE_ADV_OPEN(ConfusionTranspose);

}  // namespace AscendC

#endif  // CURATE_ASCENDC_ADV_H
