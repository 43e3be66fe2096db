// curate AscendC surface: names of other API generations, collective communication, and the
// internal helpers kernels call directly.
//
// Written for curate from the public interface. The 2024-2025 (CANN 7/8) community operators call
// helpers that today's headers keep internal (`DataCopyPadGm2UBImpl`, `DuplicateImpl`, ...) and
// constants of the kernel utilities; those are declared here, the internal helpers as open
// templates (their parameter lists differ between SoC generations: the name is checked, the
// arguments are not). Collective communication (`Hccl`) is declared with its parameter lists.
#ifndef CURATE_ASCENDC_GENERATIONS_H
#define CURATE_ASCENDC_GENERATIONS_H

#include "ascendc/adv.h"
#include "ascendc/std.h"
#include "ascendc/reg.h"
#include "ascendc/system.h"
#include "ascendc/tensor.h"

// Element-type spellings of an older generation.
using float8_e4m3_t = fp8_e4m3fn_t;
using float8_e5m2_t = fp8_e5m2_t;
using float4_e2m1x2_t = fp4x2_e2m1_t;

// Built-in core index variables of the older kernel language (before GetBlockIdx()).
constexpr int64_t block_idx = 0;
constexpr int64_t block_num = 1;

namespace AscendC {

// ---- constants of the kernel utilities ----------------------------------------------------------
const int32_t DEFAULT_C0_SIZE = 32;
const int32_t ONE_BYTE_BIT_SIZE = 8;
const uint32_t ONE_BLK_FLOAT_NUM = 8;
const uint32_t ONE_BLK_HALF_NUM = 16;
const uint8_t ONE_FOURTH_DEFAULT_REPEAT_STRIDE = 2;
const uint32_t DROPOUT_MODE_BYTE_MISALIGN = 1;
const uint32_t DROPOUT_MODE_BYTE_ALIGN = 2;
const uint32_t DROPOUT_MODE_BIT_ALIGN = 3;
const uint32_t DROPOUT_MODE_BIT_MISALIGN = 4;

// ---- type utilities ------------------------------------------------------------------------------
// Whether T is one of the listed types.
template <typename T, typename U, typename... Args>
__aicore__ constexpr bool SupportType()
{
    if constexpr (sizeof...(Args) > 0) {
        return Std::is_same_v<T, U> || SupportType<T, Args...>();
    }
    return Std::is_same_v<T, U>;
}
// The packed sub-byte element types, also spelt in the namespace.
using ::int4b_t;

// ---- scalar utilities (constexpr where the interface makes them constant) ------------------------
__aicore__ inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ constexpr inline uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
template <typename T>
__aicore__ constexpr T AlignDown(T num1, T num2)
{
    return num1 / num2 * num2;
}
template <typename T>
__aicore__ constexpr int32_t AuxGetC0Size()
{
    return 32 / sizeof(T);
}

// ---- shapes of the adv-API helpers of the CANN 8 generation --------------------------------------
struct DropOutShapeInfo {
    __aicore__ DropOutShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
struct AntiQuantShapeInfo {
    uint32_t offsetHeight{0};
    uint32_t offsetWidth{0};
    uint32_t scaleHeight{0};
    uint32_t scaleWidth{0};
};
struct DequantParams {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
};

// Softmax configuration (a template argument of the softmax family since CANN 8).
enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
    __aicore__ constexpr SoftmaxConfig(const bool isCheckTilingIn) : isCheckTiling(isCheckTilingIn) {}
    __aicore__ constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn)
    {}
    __aicore__ constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn,
                                       const SoftmaxMode modeIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn), mode(modeIn)
    {}
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0};

template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
__aicore__ inline bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor,
                                        const uint32_t from, const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo);
// Select by a byte mask (adv API): destination first; the rest as the generation defines it.
template <typename T, typename U, bool isReuseMask = true, bool reverse = false, typename... CurateRest>
__aicore__ inline void SelectWithBytesMask(const LocalTensor<T>& dst, CurateRest&&... rest);

// The older name of the scalar Cast.
template <typename T, typename U, RoundMode roundMode>
__aicore__ inline U ScalarCast(T valueIn);
__aicore__ inline void Nop();
__aicore__ inline void SetNextTaskStart();
__aicore__ inline void WaitPreTaskEnd();
__aicore__ inline void SetMMLayoutTransform(bool mmLayoutMode);
__aicore__ inline void SetMMRowMajor();
__aicore__ inline void SetMMColumnMajor();
__aicore__ inline int64_t GetSubBlockIdxImpl();

// Softmax tiling computed in the kernel (the shape-info form of CANN 8 and the raw form)
__aicore__ inline constexpr SoftMaxTiling SoftMaxFlashV2TilingFunc(
    const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
    const uint32_t localWorkSpaceSize, const bool isUpdate = false, const bool isBasicBlock = false,
    const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false)
{
    return {};
}
// Softmax tiling computed in the kernel (constexpr where the interface makes it so).
__aicore__ inline constexpr SoftMaxTiling SoftMaxFlashV2TilingFuncImpl(
    const uint32_t srcM, const uint32_t srcK, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
    const uint32_t localWorkSpaceSize, const bool isUpdate = false, const bool isBasicBlock = false,
    const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false)
{
    return {};
}

// Image-to-column loads with the packed configuration (CANN 8 cube kernels).
struct LoadData3DParamsV2Pro {
    __aicore__ LoadData3DParamsV2Pro() {}
    __aicore__ LoadData3DParamsV2Pro(const uint16_t channelSizeIn, const bool enTransposeIn, const bool enSmallKIn,
                                     const bool filterSizeWIn, const bool filterSizeHIn, const bool fMatrixCtrlIn,
                                     const uint64_t extConfigIn, const uint64_t filterConfigIn)
        : channelSize(channelSizeIn),
          enTranspose(enTransposeIn),
          enSmallK(enSmallKIn),
          filterSizeW(filterSizeWIn),
          filterSizeH(filterSizeHIn),
          fMatrixCtrl(fMatrixCtrlIn),
          extConfig(extConfigIn),
          filterConfig(filterConfigIn)
    {}
    uint16_t channelSize = 0;
    bool enTranspose = false;
    bool enSmallK = false;
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
    uint64_t extConfig = 0;
    uint64_t filterConfig = 0X10101010101;
};
template <typename T>
__aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                const LoadData3DParamsV2Pro& loadDataParams);
__aicore__ inline void Load3DSetFMatrixCal(uint16_t l1H, uint16_t l1W, const uint8_t padList[4]);
__aicore__ inline void Load3DSetFMatrixCal(uint64_t regFMatrix);

// Debug dumps (no-ops in a production build).
__aicore__ inline void InitDump(bool mixFlag, uint32_t gmLen);
__aicore__ inline void InitDump(bool mixFlag, GM_ADDR dumpStartAddr, uint32_t gmLen);

// ---- internal helpers kernels call directly (open: their parameters differ per SoC) ---------------
#define CURATE_INTERNAL(Name)                                   \
    template <typename... CurateTypes, typename... CurateArgs> \
    __aicore__ inline void Name(CurateArgs&&... args)
CURATE_INTERNAL(DataCopyPadGm2UBImpl);
CURATE_INTERNAL(DataCopyPadUB2GMImpl);
CURATE_INTERNAL(TransDataTo5HDImpl);
CURATE_INTERNAL(DuplicateImpl);
CURATE_INTERNAL(DuplicateIntrinsicsImpl);
CURATE_INTERNAL(BlockReduceMaxIntrinsicsImpl);
CURATE_INTERNAL(BlockReduceSumIntrinsicsImpl);
CURATE_INTERNAL(SetNdParaImpl);
CURATE_INTERNAL(SetFixPipeConfigImpl);
CURATE_INTERNAL(ReduceLastND);
#undef CURATE_INTERNAL
// The older spelling of SetAtomicNone.
__aicore__ inline void SetAtomicnone();

// ---- collective communication (Hccl) ---------------------------------------------------------------
using HcclHandle = int8_t;
enum HcclReduceOp { HCCL_REDUCE_SUM = 0, HCCL_REDUCE_PROD = 1, HCCL_REDUCE_MAX = 2, HCCL_REDUCE_MIN = 3, HCCL_REDUCE_RESERVED };
enum HcclServerType { HCCL_SERVER_TYPE_AICPU = 0, HCCL_SERVER_TYPE_CCU = 5, HCCL_SERVER_TYPE_END };
enum class CoreType : uint8_t { DEFAULT, ON_AIV, ON_AIC };
enum HcclDataType {
    HCCL_DATA_TYPE_INT8 = 0,
    HCCL_DATA_TYPE_INT16 = 1,
    HCCL_DATA_TYPE_INT32 = 2,
    HCCL_DATA_TYPE_FP16 = 3,
    HCCL_DATA_TYPE_FP32 = 4,
    HCCL_DATA_TYPE_INT64 = 5,
    HCCL_DATA_TYPE_UINT64 = 6,
    HCCL_DATA_TYPE_UINT8 = 7,
    HCCL_DATA_TYPE_UINT16 = 8,
    HCCL_DATA_TYPE_UINT32 = 9,
    HCCL_DATA_TYPE_FP64 = 10,
    HCCL_DATA_TYPE_BFP16 = 11,
    HCCL_DATA_TYPE_INT128 = 12,
    HCCL_DATA_TYPE_HIF8 = 14,
    HCCL_DATA_TYPE_FP8E4M3 = 15,
    HCCL_DATA_TYPE_FP8E5M2 = 16,
    HCCL_DATA_TYPE_FP8E8M0 = 17,
    HCCL_DATA_TYPE_MXFP8 = 18,
    HCCL_DATA_TYPE_RESERVED = 255
};
enum class ScopeType : uint8_t { ALL, QUEUE, BLOCK, INVALID_TYPE };
struct HcclServerConfig {
    CoreType type;
    int64_t blockId;
};
static constexpr HcclServerConfig DEFAULT_CFG = {CoreType::DEFAULT, 0};
constexpr uint32_t HCCL_MAX_RANK_NUM = 32U;
struct MemDetails {
    uint64_t size;
    uint64_t addr;
    uint32_t key;
};
struct IbVerbsData {
    MemDetails remoteInput;
    MemDetails remoteOutput;
    MemDetails localInput;
    MemDetails localOutput;
    uint8_t res[24];
};

template <uint32_t index>
__aicore__ inline __gm__ uint8_t* GetHcclContext();
template <uint32_t index>
__aicore__ inline void SetHcclContext(__gm__ uint8_t* context);

template <HcclServerType serverType = HcclServerType::HCCL_SERVER_TYPE_AICPU, const auto& config = DEFAULT_CFG>
class Hccl {
public:
    template <bool commit = false>
    __aicore__ inline HcclHandle AllReduce(GM_ADDR sendBuf, GM_ADDR recvBuf, uint64_t count, HcclDataType dataType,
                                           HcclReduceOp op, uint8_t repeat = 1);
    template <bool commit = false>
    __aicore__ inline HcclHandle AllGather(GM_ADDR sendBuf, GM_ADDR recvBuf, uint64_t sendCount, HcclDataType dataType,
                                           uint64_t strideCount, uint8_t repeat = 1);
    template <bool commit = false>
    __aicore__ inline HcclHandle ReduceScatter(GM_ADDR sendBuf, GM_ADDR recvBuf, uint64_t recvCount,
                                               HcclDataType dataType, HcclReduceOp op, uint64_t strideCount,
                                               uint8_t repeat = 1);
    template <bool commit = false>
    __aicore__ inline HcclHandle AlltoAll(GM_ADDR sendBuf, GM_ADDR recvBuf, uint64_t dataCount, HcclDataType dataType,
                                          uint64_t strideCount = 0, uint8_t repeat = 1);
    template <bool commit = false>
    __aicore__ inline HcclHandle AlltoAllV(GM_ADDR sendBuf, void* sendCounts, void* sdispls, HcclDataType sendType,
                                           GM_ADDR recvBuf, void* recvCounts, void* rdispls, HcclDataType recvType,
                                           uint8_t repeat = 1);
    template <bool commit = false>
    __aicore__ inline HcclHandle BatchWrite(GM_ADDR batchWriteInfo, uint32_t itemNum, uint16_t queueID = 0U);
    template <bool commit = false>
    __aicore__ inline HcclHandle AlltoAllvWrite(GM_ADDR usrIn, GM_ADDR sendOffsets, GM_ADDR sendSizes,
                                                uint64_t remoteWinOffset, uint64_t localDataSize);
    __aicore__ inline int32_t SetCcTiling(__gm__ void* ccOpTilingData);
    __aicore__ inline int32_t SetCcTilingV2(uint64_t offset);
    __aicore__ inline void Init(GM_ADDR context, __gm__ void* initTiling = nullptr);
    __aicore__ inline void InitV2(GM_ADDR context, const void* initTiling);
    __aicore__ inline void Commit(HcclHandle handleId);
    __aicore__ inline int32_t Wait(HcclHandle handleId);
    __aicore__ inline int32_t Query(HcclHandle handleId);
    __aicore__ inline void InterHcclGroupSync(int8_t srcGroupID, HcclHandle srcHandleID);
    template <ScopeType type = ScopeType::ALL>
    __aicore__ inline void QueueBarrier(uint16_t queueID);
    template <bool sync = true>
    __aicore__ inline int32_t Iterate(HcclHandle handleId, uint16_t* seqSlices, uint16_t seqSliceLen);
    template <bool sync = true>
    __aicore__ inline void Finalize();
    __aicore__ inline GM_ADDR GetWindowsInAddr(uint32_t rankId);
    __aicore__ inline GM_ADDR GetWindowsOutAddr(uint32_t rankId);
    __aicore__ inline uint32_t GetRankId();
    __aicore__ inline uint32_t GetRankDim();
    __aicore__ inline uint16_t GetQueueNum();
};

// ---- layouts of the basic API: shapes, strides and coordinates as tuples ----------------------------
template <typename... Shapes>
using Shape = Std::tuple<Shapes...>;
template <typename... Strides>
using Stride = Std::tuple<Strides...>;
template <typename... Coords>
using Coord = Std::tuple<Coords...>;
template <typename... Ts>
__aicore__ inline constexpr Shape<Ts...> MakeShape(const Ts&... t);
template <typename... Ts>
__aicore__ inline constexpr Stride<Ts...> MakeStride(const Ts&... t);
template <typename... Ts>
__aicore__ inline constexpr Coord<Ts...> MakeCoord(const Ts&... t);
template <typename T, typename U>
struct Layout : private Std::tuple<T, U> {
    __aicore__ inline constexpr Layout(const T& shape = {}, const U& stride = {}) : Std::tuple<T, U>(shape, stride) {}
    __aicore__ inline constexpr decltype(auto) GetSize() const;
    __aicore__ inline constexpr decltype(auto) layout() { return *this; }
    __aicore__ inline constexpr decltype(auto) layout() const { return *this; }
    __aicore__ inline constexpr decltype(auto) GetShape() const;
    __aicore__ inline constexpr decltype(auto) GetStride() const;
    template <typename S>
    __aicore__ inline constexpr auto operator()(const S& coord) const;
};
template <typename T, typename U>
__aicore__ inline constexpr auto MakeLayout(const T& shape, const U& stride)
{
    return Layout<T, U>(shape, stride);
}
template <typename T>
struct is_layout : Std::false_type {};
template <typename T, typename U>
struct is_layout<Layout<T, U>> : Std::true_type {};
template <typename T>
constexpr bool is_layout_v = is_layout<T>::value;

// The tiling structures of the adv-API libraries, also spelt `AscendC::tiling::...`.
namespace tiling {
using AscendC::ConfusionTransposeTiling;
using AscendC::PadTiling;
using AscendC::SoftMaxTiling;
using AscendC::TopkTiling;
}  // namespace tiling

// The cross-core synchronisation base address (FFTS), set once per kernel.
__aicore__ inline void SetSyncBaseAddr(uint64_t config);

// ---- the 2023 preview generation (TIK C++, namespace `tik2`) ----------------------------------
// Its kernels offset their global buffers themselves, by the core index, and its region-proposal
// Concat/Extract (later ProposalConcat/ProposalExtract) take a repeat count and a mode number.
template <typename T>
__aicore__ inline GM_ADDR ParamOffset(GM_ADDR base, int32_t elementsPerCore);
template <typename T>
__aicore__ inline void Concat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                              const int32_t modeNumber);
template <typename T>
__aicore__ inline void Extract(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime,
                               const int32_t modeNumber);

// ---- reduces on tensors templated by ReduceType (declared with the register API) -------------
// Per data block, per pair of elements, and per repeat; the mask is a count or a bit mask.
#define CURATE_TYPED_REDUCE(Name, ...)                                                                          \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                           \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src, const int32_t mask,     \
                                const int32_t repeatTime, const int32_t dstRepStride,                         \
                                const int32_t srcBlkStride, const int32_t srcRepStride __VA_ARGS__);          \
    template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                           \
    __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<U>& src, const uint64_t mask[],  \
                                const int32_t repeatTime, const int32_t dstRepStride,                         \
                                const int32_t srcBlkStride, const int32_t srcRepStride __VA_ARGS__)
CURATE_TYPED_REDUCE(ReduceDataBlock);
CURATE_TYPED_REDUCE(ReducePairElem);
CURATE_TYPED_REDUCE(ReduceRepeat, , ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX);

}  // namespace AscendC

// The preview generation's name for the same namespace. A macro rather than a namespace alias:
// its kernels also reopen it (`namespace tik2 { ... }`), which an alias cannot be.
#define tik2 AscendC

#endif  // CURATE_ASCENDC_GENERATIONS_H
