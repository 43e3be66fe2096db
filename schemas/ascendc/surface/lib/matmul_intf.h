// curate AscendC surface: the high-level Matmul interface (`#include "lib/matmul_intf.h"`).
#ifndef CURATE_LIB_MATMUL_INTF_H
#define CURATE_LIB_MATMUL_INTF_H

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"

enum class CubeFormat { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR, ROW_MAJOR, COLUMN_MAJOR };
enum class LayoutMode { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode { NONE = 0, BATCH_LESS_THAN_L1, BATCH_LARGE_THAN_L1, SINGLE_LARGE_THAN_L1 };
enum class BatchOutMode { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class IterateOrder { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum class DecompressionMode { DECOMP_NONE = 0, DECOMP_2bitTo8bit, DECOMP_4bitTo8bit, DECOMP_1bitTo8bit };
enum class MatmulConfigMode { CONFIG_NORM = 0, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };
enum IterateMode : uint8_t {
    ITERATE_MODE_NORMAL = 0b00000001,
    ITERATE_MODE_ALL = 0b00000010,
    ITERATE_MODE_BATCH = 0b00000100,
    ITERATE_MODE_N_BATCH = 0b00001000,
    ITERATE_MODE_DEFAULT = 0b11111111,
};

// Which template of the Matmul implementation to instantiate, and with which fixed sizes.
constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;  // the default shared L0C buffer
struct MatmulConfig {
    bool doNorm = true;
    bool doBasicBlock = false;
    bool doMultiDataLoad = false;
    uint32_t basicM = 0;
    uint32_t basicN = 0;
    uint32_t basicK = 0;
    bool intrinsicsCheck = false;
    bool isNBatch = false;
    bool enVecND2NZ = false;
    bool doSpecialBasicBlock = false;
    uint32_t doMTE2Preload = 0;
    uint32_t singleCoreM = 0;
    uint32_t singleCoreN = 0;
    uint32_t singleCoreK = 0;
    uint32_t stepM = 0;
    uint32_t stepN = 0;
    uint32_t baseMN = 0;
    uint32_t singleCoreMN = 0;
    bool enUnitFlag = true;
    bool isPerTensor = false;
    bool hasAntiQuantOffset = false;
    bool doIBShareNorm = false;
    bool doSpecialMDL = false;
    bool enableInit = true;
    BatchMode batchMode = BatchMode::NONE;
    bool enableEnd = true;
    bool enableGetTensorC = true;
    bool enableSetOrgShape = true;
    bool enableSetBias = true;
    bool enableSetTail = true;
    bool enableQuantVector = true;
    bool enableSetDefineData = true;
    uint8_t iterateMode = ITERATE_MODE_DEFAULT;
    bool enableReuse = true;
    bool enableUBReuse = false;
    bool enableL1CacheUB = false;
    bool intraBlockPartSum = false;
    IterateOrder iterateOrder = IterateOrder::UNDEF;
    ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
    bool enableDoubleCache = false;
    bool isBiasBatch = true;
    bool enableStaticPadZeros = false;
    bool isPartialOutput = false;
    bool enableMixDualMaster = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool isCO1Shared = false;
    uint32_t sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
constexpr MatmulConfig CFG_NORM = {};
constexpr MatmulConfig CFG_MDL = {false, false, true};
constexpr MatmulConfig CFG_IBSHARE_NORM = {};
constexpr MatmulConfig MM_CFG_BB = {false, true};
__aicore__ constexpr MatmulConfig GetNormalConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                  const bool isVecND2NZ = false,
                                                  const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                                  const bool isMsgReuse = true,
                                                  const IterateOrder iterateOrder = IterateOrder::UNDEF,
                                                  const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
                                                  const bool enUnitFlag = true, const bool enableMixDualMaster = false,
                                                  const BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH)
{
    return CFG_NORM;
}
__aicore__ constexpr MatmulConfig GetSpecialMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                      const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                                      bool isPerTensor = false, bool hasAntiQuantOffset = false)
{
    return CFG_MDL;
}
__aicore__ constexpr MatmulConfig GetMDLConfig(const bool intrinsicsLimit = false, const bool batchLoop = false,
                                               const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
                                               bool isPerTensor = false, bool hasAntiQuantOffset = false,
                                               const bool enUnitFlag = false, const bool isMsgReuse = true,
                                               const bool enableUBReuse = true, const bool enableL1CacheUB = false,
                                               const bool enableMixDualMaster = false,
                                               const bool enableKdimReorderLoad = false)
{
    return CFG_MDL;
}
__aicore__ constexpr MatmulConfig GetBasicConfig(const uint32_t basicM, const uint32_t basicN, const uint32_t basicK,
                                                 const bool intrinsicsLimit = false, const bool batchLoop = false,
                                                 const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1)
{
    return MM_CFG_BB;
}
__aicore__ constexpr MatmulConfig GetIBShareNormConfig(const bool intrinsicsLimit = false,
                                                       const bool batchLoop = false, const bool isVecND2NZ = false,
                                                       const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                                       const bool isDoubleCache = false,
                                                       const bool enUnitFlag = true)
{
    return CFG_IBSHARE_NORM;
}

namespace AscendC {

// Describes one Matmul operand: where it lives, its layout, element type and transposition.
template <TPosition POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
    constexpr static TPosition pos = POSITION;
    constexpr static CubeFormat format = FORMAT;
    using T = TYPE;
    constexpr static bool isTrans = ISTRANS;
    constexpr static LayoutMode layout = LAYOUT;
    constexpr static bool ibShare = IBSHARE;
};
// A sparse left operand, with the position of its index matrix.
template <TPosition POSITION, TPosition INDEX_POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct SparseMatmulType : public MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT, IBSHARE> {
    constexpr static TPosition indexPosition = INDEX_POSITION;
};
// An operand with a scale matrix (MX formats): where the scales live, their layout and transposition.
template <TPosition POSITION, TPosition SCALE_POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          TPosition SRCPOS = TPosition::GM, CubeFormat SCALE_FORMAT = FORMAT, bool SCALE_ISTRANS = ISTRANS,
          TPosition SCALE_SRCPOS = SRCPOS>
struct MatmulTypeWithScale : public MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LayoutMode::NONE, false, SRCPOS> {
    constexpr static TPosition scalePosition = SCALE_POSITION;
    constexpr static CubeFormat scaleFormat = SCALE_FORMAT;
    constexpr static bool isScaleTrans = SCALE_ISTRANS;
    constexpr static TPosition srcScalePos = SCALE_SRCPOS;
};
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr, auto CopyB1 = nullptr>
struct MatmulCallBackFunc {};
struct MatrixOffset {
    int32_t offset = 0;
    int32_t row = 0;
    int32_t col = 0;
    int32_t height = 0;
    int32_t width = 0;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>>
class MatmulImpl {
public:
    using SrcAT = typename A_TYPE::T;
    using SrcBT = typename B_TYPE::T;
    using SrcT = typename A_TYPE::T;
    using DstT = typename C_TYPE::T;
    using BiasT = typename BIAS_TYPE::T;

    __aicore__ inline MatmulImpl() {}
    __aicore__ inline void Init(const TCubeTiling* __restrict cubeTiling, TPipe* tpipe = nullptr);
    __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgK);
    __aicore__ inline void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0);
    __aicore__ inline void SetSingleShape(int singleM, int singleN, int singleK);
    __aicore__ inline void SetTail(int tailM = -1, int tailN = -1, int tailK = -1);
    __aicore__ inline void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false);
    __aicore__ inline void SetTensorA(const LocalTensor<SrcAT>& leftMatrix, bool isTransposeA = false);
    __aicore__ inline void SetTensorA(SrcAT aScalar);
    __aicore__ inline void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false);
    __aicore__ inline void SetTensorB(const LocalTensor<SrcBT>& rightMatrix, bool isTransposeB = false);
    __aicore__ inline void SetTensorB(SrcBT bScalar);
    // the index matrix of a sparse left operand (SparseMatmulType)
    __aicore__ inline void SetSparseIndex(const GlobalTensor<uint8_t>& indexGlobal);
    __aicore__ inline void SetBias(const GlobalTensor<BiasT>& biasGlobal);
    __aicore__ inline void SetBias(const LocalTensor<BiasT>& inputBias);
    __aicore__ inline void DisableBias();
    __aicore__ inline void ClearBias();
    __aicore__ inline void SetBatchNum(int32_t batchA, int32_t batchB);
    __aicore__ inline void SetHF32(bool enableHF32 = false, int32_t transMode = 0);
    __aicore__ inline void SetQuantScalar(const uint64_t quantScalar);
    __aicore__ inline void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor);
    __aicore__ inline void SetLocalWorkspace(const LocalTensor<uint8_t>& tmpBuffer);
    template <class T>
    __aicore__ inline void SetWorkspace(GlobalTensor<T>& addr);
    template <class T>
    __aicore__ inline void SetWorkspace(const T* addr, int size);
    template <class T>
    __aicore__ inline void SetSelfDefineData(T dataPtr);
    __aicore__ inline void SetUserDefInfo(const uint64_t tilingPtr);
    __aicore__ inline void SetSubBlockIdx(uint8_t subBlockIdx);
    __aicore__ inline uint8_t GetSubBlockIdx();
    template <bool sync = true>
    __aicore__ inline bool Iterate(bool enPartialSum = false);
    template <bool sync = true, typename T>
    __aicore__ inline bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix);
    template <bool sync = true>
    __aicore__ inline void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false, bool waitIterateAll = false,
                                      bool fakeMsg = false);
    template <bool sync = true>
    __aicore__ inline void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0);
    __aicore__ inline void IterateBatch(const GlobalTensor<DstT>& gm, bool enPartialSum, uint8_t enAtomic,
                                        bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                        const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0);
    __aicore__ inline void IterateBatch(const LocalTensor<DstT>& ubCmatrix, bool enPartialSum, uint8_t enAtomic,
                                        bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                                        const uint32_t matrixStrideB = 0, const uint32_t matrixStrideC = 0);
    template <bool sync = true>
    __aicore__ inline void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false);
    template <bool sync = true>
    __aicore__ inline void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                                      bool enSequentialWrite = false);
    template <bool sync = true>
    __aicore__ inline void GetTensorC(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>& co2Local,
                                      uint8_t enAtomic = 0, bool enSequentialWrite = false);
    // the matmul client's form: the result stays in the workspace and its tensor is returned
    template <bool sync = true>
    __aicore__ inline GlobalTensor<DstT> GetTensorC(uint8_t enAtomic = 0, bool enSequentialWrite = false);
    template <bool isTurnOnDebug = true>
    __aicore__ inline MatrixOffset GetOffsetC();
    __aicore__ inline void WaitIterateAll();
    // after an asynchronous GetTensorC into UB, before vector code reads the result
    __aicore__ inline void WaitGetTensorC();
    // the older asynchronous form of GetTensorC<false>
    __aicore__ inline void AsyncGetTensorC(const LocalTensor<DstT>& c);
    __aicore__ inline void End();
    __aicore__ inline void SetNBatchOutNum(int32_t nBatchOutNum);
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>>
using Matmul = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB>;

// The parts a MatmulConfig is assembled from (GetMMConfig<mode>(shape, quant, batch, func)).
struct MatmulShapeParams {
    uint32_t singleCoreM;
    uint32_t singleCoreN;
    uint32_t singleCoreK;
    uint32_t basicM;
    uint32_t basicN;
    uint32_t basicK;
};
struct MatmulQuantParams {
    bool isPerTensor;
    bool hasAntiQuantOffset;
};
struct MatmulBatchParams {
    bool isNBatch;
    BatchMode batchMode;
    bool isBiasBatch = true;
    BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
    bool intrinsicsCheck;
    bool enVecND2NZ;
    bool enableDoubleCache;
    bool enableL1CacheUB;
    uint32_t doMTE2Preload;
    IterateOrder iterateOrder;
    ScheduleType scheduleType;
    bool enableReuse = true;
    bool enableUBReuse;
    bool isPartialOutput = false;
    bool isA2B2Shared = false;
    bool isEnableChannelSplit = false;
    bool enableKdimReorderLoad = false;
    bool enableL1BankConflictOptimise = false;
    bool enableRelu = false;
    DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
template <MatmulConfigMode configMode, typename... ArgTypes>
__aicore__ inline constexpr MatmulConfig GetMMConfig(ArgTypes&&... args)
{
    return {};
}
// The static tiling of a Matmul fixed at compile time.
struct MatmulApiStaticTiling {
    int32_t usedCoreNum = -1;
    int32_t M = -1;
    int32_t N = -1;
    int32_t Ka = -1;
    int32_t Kb = -1;
    int32_t singleCoreM = -1;
    int32_t singleCoreN = -1;
    int32_t singleCoreK = -1;
    int32_t baseM = -1;
    int32_t baseN = -1;
    int32_t baseK = -1;
    int32_t depthA1 = -1;
    int32_t depthB1 = -1;
    int32_t stepM = -1;
    int32_t stepN = -1;
    int32_t isBias = -1;
    int32_t transLength = -1;
    int32_t iterateOrder = -1;
    int32_t stepKa = -1;
    int32_t stepKb = -1;
    int32_t depthAL1CacheUB = -1;
    int32_t depthBL1CacheUB = -1;
    int32_t dbL0A = -1;
    int32_t dbL0B = -1;
    int32_t dbL0C = -1;
    int32_t shareMode = -1;
    int32_t shareL1Size = -1;
    int32_t shareL0CSize = -1;
    int32_t shareUbSize = -1;
    int32_t ALayoutInfoB = -1;
    int32_t ALayoutInfoS = -1;
    int32_t ALayoutInfoN = -1;
    int32_t ALayoutInfoG = -1;
    int32_t ALayoutInfoD = -1;
    int32_t BLayoutInfoB = -1;
    int32_t BLayoutInfoS = -1;
    int32_t BLayoutInfoN = -1;
    int32_t BLayoutInfoG = -1;
    int32_t BLayoutInfoD = -1;
    int32_t CLayoutInfoB = -1;
    int32_t CLayoutInfoS1 = -1;
    int32_t CLayoutInfoN = -1;
    int32_t CLayoutInfoG = -1;
    int32_t CLayoutInfoS2 = -1;
    int32_t BatchNum = -1;
    int32_t mxTypePara = -1;  // MX matmul: scale load size in L1 relative to A/B
    MatmulConfig cfg = CFG_NORM;
};
// The L0C (accumulator) element type of a Matmul over A elements of type T. The union of the
// generations; half maps to float, as on all but two SoC classes.
template <typename T>
struct GetMmDstType {
    using Type = T;
};
#define CURATE_MM_DST_TYPE(Element, Accumulator) \
    template <>                                   \
    struct GetMmDstType<Element> {                \
        using Type = Accumulator;                 \
    }
CURATE_MM_DST_TYPE(int8_t, int32_t);
CURATE_MM_DST_TYPE(int4b_t, int32_t);
CURATE_MM_DST_TYPE(int16_t, int32_t);
CURATE_MM_DST_TYPE(half, float);
CURATE_MM_DST_TYPE(bfloat16_t, float);
CURATE_MM_DST_TYPE(fp8_e4m3fn_t, float);
CURATE_MM_DST_TYPE(fp8_e5m2_t, float);
CURATE_MM_DST_TYPE(hifloat8_t, float);
CURATE_MM_DST_TYPE(fp4x2_e2m1_t, float);
CURATE_MM_DST_TYPE(fp4x2_e1m2_t, float);
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
__aicore__ constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG, int32_t l1Size = 524288)
{
    return {};
}
template <typename T>
__aicore__ constexpr MatmulConfig ToMatmulConfig(const T& cfg)
{
    return {};
}

// Rounding-up division the matmul utilities export (kernels of the matmul family call it).
__aicore__ inline uint16_t CeilDiv(uint16_t num, uint16_t divisor);

template <class... Objects>
__aicore__ inline void InitCurObj(TPipe* tpipe, Objects&&... objects);

}  // namespace AscendC

// Kernels may also spell the namespace `matmul::`.
namespace matmul = AscendC;

// Binds Matmul objects (and their tilings) to the pipe and workspace of the kernel.
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...) (static_cast<void>(workspace), AscendC::InitCurObj(tpipe, __VA_ARGS__))
#define REGIST_MATMUL_OBJ_STATIC REGIST_MATMUL_OBJ
#define REGIST_CUBE_OBJ REGIST_MATMUL_OBJ

#endif  // CURATE_LIB_MATMUL_INTF_H
