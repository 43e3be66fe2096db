// curate AscendC surface: the register-level vector interface (AscendC::Reg, also spelled
// AscendC::MicroAPI), used inside vector functions (`__simd_vf__`) on newer cores.
//
// Register operands are generic (`U& dstReg`): the interface dispatches on the register type,
// so what the surface can check is the name, the argument count and the template parameters.
#ifndef CURATE_ASCENDC_REG_H
#define CURATE_ASCENDC_REG_H

#include "ascendc/tensor.h"

namespace AscendC {

enum class ReduceType { NONE = -1, SUM = 0, MAX, MIN };

namespace Reg {

struct DefaultType {};
struct RegTrait {
    int REG_NUM = 1;
};
constexpr RegTrait RegTraitNumOne = {1};
constexpr RegTrait RegTraitNumTwo = {2};

template <typename T, const RegTrait& regTrait = RegTraitNumOne>
class RegTensor {
public:
    using ActualT = T;
    static constexpr int REG_NUM = regTrait.REG_NUM;
    __aicore__ inline RegTensor() {}
    __aicore__ inline void Print() const;
};
class MaskReg {
public:
    __aicore__ inline MaskReg() {}
};
class AddrReg {
public:
    __aicore__ inline AddrReg() {}
};
class UnalignReg {
public:
    __aicore__ inline UnalignReg() {}
};
using UnalignRegForLoad = UnalignReg;
using UnalignRegForStore = UnalignReg;

enum class RegLayout { UNKNOWN = -1, ZERO = 0, ONE, TWO, THREE };
enum class SatMode { UNKNOWN = -1, NO_SAT = 0, SAT };
enum class IndexOrder { INCREASE_ORDER = 0, DECREASE_ORDER };
enum class MaskMergeMode { UNKNOWN = 0, MERGING, ZEROING };
enum class HistogramsBinType { BIN0 = 0, BIN1, BIN2, BIN3, BIN4, BIN5, BIN6, BIN7 };
enum class HistogramsType { FREQUENCY = 0, ACCUMULATE };
enum class HighLowPart { LOWEST = 0, HIGHEST };
enum class PostLiteral { POST_MODE_NORMAL = 0, POST_MODE_UPDATE };
enum class MaskPattern { ALL = 0, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4, H, Q, ALLF = 15 };
enum class LoadDist {
    DIST_NORM = 0,
    DIST_BRC_B8,
    DIST_BRC_B16,
    DIST_BRC_B32,
    DIST_US_B8 = 6,
    DIST_US_B16,
    DIST_DS_B8,
    DIST_DS_B16,
    DIST_BDINTLV,
    DIST_DINTLV_B8,
    DIST_DINTLV_B16,
    DIST_UNPACK_B8,
    DIST_UNPACK_B16,
    DIST_BLK,
    DIST_E2B_B16,
    DIST_E2B_B32,
    DIST_UNPACK_B32,
    DIST_DINTLV_B32,
    DIST_UNPACK4_B8,
    DIST_SPLT4CHN_B8,
    DIST_SPLT2CHN_B8,
    DIST_SPLT2CHN_B16,
};
enum class MaskDist { DIST_NORM = 0, DIST_US = 1, DIST_DS = 2, DIST_PACK = 1 };
enum class StoreDist {
    DIST_NORM_B8 = 0,
    DIST_NORM_B16,
    DIST_NORM_B32,
    DIST_FIRST_ELEMENT_B8,
    DIST_FIRST_ELEMENT_B16,
    DIST_FIRST_ELEMENT_B32,
    DIST_PACK_B16,
    DIST_PACK_B32,
    DIST_INTLV_B8,
    DIST_INTLV_B16,
    DIST_PACK_B64,
    DIST_INTLV_B32,
    DIST_PACK4_B32,
    DIST_MRG4CHN_B8,
    DIST_MRG2CHN_B8,
    DIST_MRG2CHN_B16,
    DIST_NORM,
};
enum class MemType { VEC_STORE = 0, VEC_LOAD, SCALAR_STORE, SCALAR_LOAD, VEC_ALL, SCALAR_ALL };
enum class DataCopyMode { DATA_BLOCK_COPY = 0 };
enum class GatherMaskMode { NO_STORE_REG = 0, STORE_REG };
enum class StoreMode { NOSTORED = 0, STORED };
enum class RoundControl { NO_ROUND = 0, ROUND };
enum class PairReduce { SUM = 0 };
using ReduceType = AscendC::ReduceType;
using AscendC::SpecialPurposeReg;
constexpr SpecialPurposeReg AR = SpecialPurposeReg::AR;

struct CastTrait {
    RegLayout layoutMode = RegLayout::UNKNOWN;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::UNKNOWN;
    RoundMode roundMode = RoundMode::UNKNOWN;
};
constexpr CastTrait castTrait = {};
// Older toolchains spell these {mode, precisionMode}, newer ones {mode, algo}: accept both.
#define CURATE_REG_SPECIFIC_MODE(Name, Algo)                                                         \
    struct Name {                                                                                    \
        MaskMergeMode mrgMode = MaskMergeMode::ZEROING;                                              \
        bool precisionMode = false;                                                                  \
        Algo algo = Algo::INTRINSIC;                                                                 \
        constexpr Name() = default;                                                                  \
        constexpr Name(MaskMergeMode m) : mrgMode(m) {}                                               \
        constexpr Name(MaskMergeMode m, bool precision) : mrgMode(m), precisionMode(precision) {}     \
        constexpr Name(MaskMergeMode m, Algo a) : mrgMode(m), algo(a) {}                              \
        constexpr Name(MaskMergeMode m, bool precision, Algo a) : mrgMode(m), precisionMode(precision), algo(a) {} \
    }
CURATE_REG_SPECIFIC_MODE(ExpSpecificMode, ExpAlgo);
CURATE_REG_SPECIFIC_MODE(LnSpecificMode, LnAlgo);
CURATE_REG_SPECIFIC_MODE(LogSpecificMode, LogAlgo);
CURATE_REG_SPECIFIC_MODE(Log2SpecificMode, LogAlgo);
CURATE_REG_SPECIFIC_MODE(Log10SpecificMode, LogAlgo);
CURATE_REG_SPECIFIC_MODE(DivSpecificMode, DivAlgo);
CURATE_REG_SPECIFIC_MODE(SqrtSpecificMode, SqrtAlgo);

// ---- masks --------------------------------------------------------------------------------------
template <typename T, MaskPattern mode = MaskPattern::ALL, const RegTrait& regTrait = RegTraitNumOne>
__aicore__ inline MaskReg CreateMask();
template <typename T, const RegTrait& regTrait = RegTraitNumOne>
__aicore__ inline MaskReg UpdateMask(uint32_t& scalarValue);
template <typename T>
__aicore__ inline MaskReg MoveMask();
template <typename T = DefaultType, int16_t offset = 0, typename U>
__aicore__ inline void MaskGenWithRegTensor(MaskReg& dst, U& srcReg);
#define CURATE_REG_MASK_BINARY(Name) __aicore__ inline void Name(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask)
CURATE_REG_MASK_BINARY(MaskAnd);
CURATE_REG_MASK_BINARY(MaskOr);
CURATE_REG_MASK_BINARY(MaskXor);
CURATE_REG_MASK_BINARY(MaskSel);
CURATE_REG_MASK_BINARY(And);
CURATE_REG_MASK_BINARY(Or);
CURATE_REG_MASK_BINARY(Xor);
CURATE_REG_MASK_BINARY(Select);
__aicore__ inline void MaskNot(MaskReg& dst, MaskReg& src, MaskReg& mask);
__aicore__ inline void Not(MaskReg& dst, MaskReg& src, MaskReg& mask);
__aicore__ inline void MaskMov(MaskReg& dst, MaskReg& src);
__aicore__ inline void MaskMov(MaskReg& dst, MaskReg& src, MaskReg& mask);
__aicore__ inline void Move(MaskReg& dst, MaskReg& src);
__aicore__ inline void Move(MaskReg& dst, MaskReg& src, MaskReg& mask);
template <typename T>
__aicore__ inline void MaskInterleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1);
template <typename T>
__aicore__ inline void MaskDeInterleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1);
template <typename T>
__aicore__ inline void Interleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1);
template <typename T>
__aicore__ inline void DeInterleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1);
template <HighLowPart part = HighLowPart::LOWEST>
__aicore__ inline void MaskPack(MaskReg& dst, MaskReg& src);
template <HighLowPart part = HighLowPart::LOWEST>
__aicore__ inline void MaskUnPack(MaskReg& dst, MaskReg& src);
template <HighLowPart part = HighLowPart::LOWEST>
__aicore__ inline void Pack(MaskReg& dst, MaskReg& src);
template <HighLowPart part = HighLowPart::LOWEST>
__aicore__ inline void UnPack(MaskReg& dst, MaskReg& src);

// ---- address registers and memory barriers --------------------------------------------------------
template <typename T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0);
template <typename T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1);
template <typename T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1,
                                        uint16_t index2, uint32_t stride2);
template <typename T>
__aicore__ inline AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1,
                                        uint16_t index2, uint32_t stride2, uint16_t index3, uint32_t stride3);
template <MemType src, MemType dst>
__aicore__ inline void LocalMemBar();
template <SpecialPurposeReg spr>
__aicore__ inline int64_t GetSpr();
template <SpecialPurposeReg spr>
__aicore__ inline void ClearSpr();

// ---- loads and stores between the unified buffer and registers -------------------------------------
// Register loads (first form) and stores (pointer first) under both names the interface has used.
#define CURATE_REG_LOAD_STORE(Load, Store)                                                                     \
    template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>                       \
    __aicore__ inline void Load(U& dstReg, __ubuf__ T* srcAddr);                                               \
    template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>                       \
    __aicore__ inline void Load(U& dstReg, __ubuf__ T* srcAddr, AddrReg offset);                               \
    template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>                       \
    __aicore__ inline void Load(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr);                                  \
    template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U>                       \
    __aicore__ inline void Load(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr, AddrReg offset);                  \
    template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE,                  \
              LoadDist dist = LoadDist::DIST_NORM, typename U>                                                 \
    __aicore__ inline void Load(U& dstReg, __ubuf__ T*& srcAddr, int32_t postUpdateStride);                    \
    template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE,                  \
              LoadDist dist = LoadDist::DIST_NORM, typename U>                                                 \
    __aicore__ inline void Load(U& dstReg0, U& dstReg1, __ubuf__ T*& srcAddr, int32_t postUpdateStride);       \
    template <typename T = DefaultType, DataCopyMode dataMode = DataCopyMode::DATA_BLOCK_COPY, typename U>     \
    __aicore__ inline void Load(U& dstReg, __ubuf__ T* srcAddr, uint32_t dataBlockStride, MaskReg& mask);      \
    template <typename T = DefaultType, DataCopyMode dataMode = DataCopyMode::DATA_BLOCK_COPY,                 \
              PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>                                \
    __aicore__ inline void Load(U& dstReg, __ubuf__ T*& srcAddr, uint32_t dataBlockStride, uint32_t repeatStride, \
                                MaskReg& mask);                                                                \
    template <typename T, MaskDist dist = MaskDist::DIST_NORM>                                                 \
    __aicore__ inline void Load(MaskReg& mask, __ubuf__ T* srcAddr);                                           \
    template <typename T, MaskDist dist = MaskDist::DIST_NORM>                                                 \
    __aicore__ inline void Load(MaskReg& mask, __ubuf__ T* srcAddr, AddrReg offset);                           \
    template <typename T, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM>                           \
    __aicore__ inline void Load(MaskReg& mask, __ubuf__ T*& srcAddr, int32_t offset);                          \
    template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>                     \
    __aicore__ inline void Store(__ubuf__ T* dstAddr, U& srcReg, MaskReg& mask);                               \
    template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>                     \
    __aicore__ inline void Store(__ubuf__ T* dstAddr, U& srcReg, AddrReg offset, MaskReg& mask);               \
    template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>                     \
    __aicore__ inline void Store(__ubuf__ T* dstAddr, U& srcReg0, U& srcReg1, MaskReg& mask);                  \
    template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U>                     \
    __aicore__ inline void Store(__ubuf__ T* dstAddr, U& srcReg0, U& srcReg1, AddrReg offset, MaskReg& mask);  \
    template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE,                  \
              StoreDist dist = StoreDist::DIST_NORM, typename U>                                               \
    __aicore__ inline void Store(__ubuf__ T*& dstAddr, U& srcReg, int32_t postUpdateStride, MaskReg& mask);    \
    template <typename T = DefaultType, DataCopyMode dataMode = DataCopyMode::DATA_BLOCK_COPY, typename U>     \
    __aicore__ inline void Store(__ubuf__ T* dstAddr, U& srcReg, uint32_t dataBlockStride, MaskReg& mask);     \
    template <typename T = DefaultType, DataCopyMode dataMode = DataCopyMode::DATA_BLOCK_COPY,                 \
              PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>                                \
    __aicore__ inline void Store(__ubuf__ T*& dstAddr, U& srcReg, uint32_t dataBlockStride, uint32_t repeatStride, \
                                 MaskReg& mask);                                                               \
    template <typename T, MaskDist dist = MaskDist::DIST_NORM>                                                 \
    __aicore__ inline void Store(__ubuf__ T* dstAddr, MaskReg& mask);                                          \
    template <typename T, MaskDist dist = MaskDist::DIST_NORM>                                                 \
    __aicore__ inline void Store(__ubuf__ T* dstAddr, MaskReg& mask, AddrReg offset);                          \
    template <typename T, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM>                           \
    __aicore__ inline void Store(__ubuf__ T*& dstAddr, MaskReg& mask, int32_t offset)
CURATE_REG_LOAD_STORE(LoadAlign, StoreAlign);
// The older single name: loads and stores are both `DataCopy`, told apart by operand order.
#define CURATE_REG_DATACOPY_ONLY_LOAD(Name) CURATE_REG_LOAD_STORE(Name, Name)
CURATE_REG_DATACOPY_ONLY_LOAD(DataCopy);

template <typename T = DefaultType, typename U>
__aicore__ inline void Load(U& dstReg, __ubuf__ T* srcAddr);
template <typename T = DefaultType, typename U>
__aicore__ inline void Store(__ubuf__ T* dstAddr, U& srcReg);
template <typename T = DefaultType, typename U>
__aicore__ inline void Store(__ubuf__ T* dstAddr, U& srcReg, uint32_t count);

// Unaligned access through an alignment register (old and new names).
#define CURATE_REG_UNALIGNED(LoadPre, Load, Store, StorePost)                                                   \
    template <typename T>                                                                                        \
    __aicore__ inline void LoadPre(UnalignReg& ureg, __ubuf__ T* srcAddr);                                       \
    template <typename T>                                                                                        \
    __aicore__ inline void LoadPre(UnalignReg& ureg, __ubuf__ T* srcAddr, AddrReg& areg);                        \
    template <typename T = DefaultType, typename U>                                                              \
    __aicore__ inline void Load(U& dstReg, UnalignReg& ureg, __ubuf__ T* srcAddr);                               \
    template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>        \
    __aicore__ inline void Load(U& dstReg, UnalignReg& ureg, __ubuf__ T*& srcAddr, uint32_t postUpdateStride);  \
    template <typename T = DefaultType, typename U>                                                              \
    __aicore__ inline void Load(U& dstReg, UnalignReg& ureg, __ubuf__ T*& srcAddr, AddrReg& areg, uint32_t inc); \
    template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>        \
    __aicore__ inline void Store(__ubuf__ T* dstAddr, U& srcReg, UnalignReg& ureg);                              \
    template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>        \
    __aicore__ inline void Store(__ubuf__ T*& dstAddr, U& srcReg, UnalignReg& ureg, uint32_t postUpdateStride);  \
    template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>        \
    __aicore__ inline void Store(__ubuf__ T*& dstAddr, U& srcReg, UnalignReg& ureg, AddrReg& areg);              \
    template <typename T>                                                                                        \
    __aicore__ inline void Store(__ubuf__ T*& dstAddr, MaskReg& mask, UnalignReg& ureg);                         \
    template <typename T, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>                                  \
    __aicore__ inline void StorePost(__ubuf__ T*& dstAddr, UnalignReg& ureg, int32_t postUpdateStride);          \
    template <typename T>                                                                                        \
    __aicore__ inline void StorePost(__ubuf__ T* dstAddr, UnalignReg& ureg);                                     \
    template <typename T>                                                                                        \
    __aicore__ inline void StorePost(__ubuf__ T*& dstAddr, UnalignReg& ureg, AddrReg& areg)
CURATE_REG_UNALIGNED(LoadUnAlignPre, LoadUnAlign, StoreUnAlign, StoreUnAlignPost);
CURATE_REG_UNALIGNED(DataCopyUnAlignPre, DataCopyUnAlign, DataCopyUnAlign, DataCopyUnAlignPost);

// Gather/scatter between the unified buffer and registers.
template <typename T0 = DefaultType, typename T1, typename T2 = DefaultType, typename T3, typename T4>
__aicore__ inline void DataCopyGather(T3& dstReg, __ubuf__ T1* baseAddr, T4& index, MaskReg& mask);
template <typename T0 = DefaultType, typename T1, typename T2 = DefaultType, typename T3, typename T4>
__aicore__ inline void Gather(T3& dstReg, __ubuf__ T1* baseAddr, T4& index, MaskReg& mask);
template <typename T = DefaultType, typename U, typename S>
__aicore__ inline void DataCopyGatherB(U& dstReg, __ubuf__ T* baseAddr, S& index, MaskReg& mask);
template <typename T = DefaultType, typename U, typename S>
__aicore__ inline void GatherB(U& dstReg, __ubuf__ T* baseAddr, S& index, MaskReg& mask);
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
__aicore__ inline void DataCopyScatter(__ubuf__ T* baseAddr, S& srcReg, V& index, MaskReg& mask);
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
__aicore__ inline void Scatter(__ubuf__ T* baseAddr, S& srcReg, V& index, MaskReg& mask);
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
__aicore__ inline void Gather(S& dstReg, S& srcReg, V& indexReg);

// ---- arithmetic on registers ------------------------------------------------------------------------
#define CURATE_REG_UNARY(Name)                                                        \
    template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U> \
    __aicore__ inline void Name(U& dstReg, U& srcReg, MaskReg& mask)
#define CURATE_REG_BINARY(Name)                                                         \
    template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U> \
    __aicore__ inline void Name(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask)
#define CURATE_REG_SCALAR(Name)                                                                               \
    template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, \
              typename S, typename V>                                                                         \
    __aicore__ inline void Name(S& dstReg, S& srcReg, V scalarValue, MaskReg& mask)
CURATE_REG_UNARY(Abs);
CURATE_REG_UNARY(Exp);
CURATE_REG_UNARY(Ln);
CURATE_REG_UNARY(Log);
CURATE_REG_UNARY(Log2);
CURATE_REG_UNARY(Log10);
CURATE_REG_UNARY(Sqrt);
CURATE_REG_UNARY(Neg);
CURATE_REG_UNARY(Not);
CURATE_REG_UNARY(Relu);
CURATE_REG_UNARY(Rsqrt);
CURATE_REG_UNARY(Reciprocal);
CURATE_REG_BINARY(Add);
CURATE_REG_BINARY(Sub);
CURATE_REG_BINARY(Mul);
CURATE_REG_BINARY(Div);
CURATE_REG_BINARY(Max);
CURATE_REG_BINARY(Min);
CURATE_REG_BINARY(And);
CURATE_REG_BINARY(Or);
CURATE_REG_BINARY(Xor);
CURATE_REG_BINARY(Prelu);
CURATE_REG_BINARY(MulAddDst);
CURATE_REG_BINARY(MulDstAdd);
CURATE_REG_BINARY(Mula);
CURATE_REG_BINARY(FusedMulDstAdd);
CURATE_REG_BINARY(AbsSub);
CURATE_REG_BINARY(FusedAbsSub);
// exp(src0 - src1), the result may be wider than the sources (half in, float out)
template <typename T = DefaultType, typename U = DefaultType, RegLayout layout = RegLayout::ZERO,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
__aicore__ inline void FusedExpSub(S& dstReg, V& srcReg0, V& srcReg1, MaskReg& mask);
template <typename T = DefaultType, typename U = DefaultType, RegLayout layout = RegLayout::ZERO,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
__aicore__ inline void ExpSub(S& dstReg, V& srcReg0, V& srcReg1, MaskReg& mask);
CURATE_REG_BINARY(ShiftLeft);
CURATE_REG_BINARY(ShiftRight);
CURATE_REG_SCALAR(Adds);
CURATE_REG_SCALAR(Muls);
CURATE_REG_SCALAR(Maxs);
CURATE_REG_SCALAR(Mins);
CURATE_REG_SCALAR(LeakyRelu);
CURATE_REG_SCALAR(ShiftLefts);
CURATE_REG_SCALAR(ShiftRights);
CURATE_REG_SCALAR(Axpy);
CURATE_REG_SCALAR(MulsCast);
template <typename T0 = DefaultType, typename T1 = DefaultType, typename T2, RegLayout layout = RegLayout::ZERO,
          typename T3, typename T4>
__aicore__ inline void FusedMulsCast(T3& dstReg, T4& srcReg, T2 scalarValue, MaskReg& mask);
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
__aicore__ inline void Abs(S& dstReg, V& srcReg, MaskReg& mask);
template <typename T = DefaultType, typename U>
__aicore__ inline void Add(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask);
template <typename T = DefaultType, typename U>
__aicore__ inline void Sub(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask);
template <typename T = DefaultType, typename U>
__aicore__ inline void AddC(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& carrySrc, MaskReg& mask);
template <typename T = DefaultType, typename U>
__aicore__ inline void SubC(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& carrySrc, MaskReg& mask);
template <typename T = DefaultType, typename U>
__aicore__ inline void Mull(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1, MaskReg& mask);
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
__aicore__ inline void ShiftLeft(S& dstReg, S& srcReg0, V& srcReg1, MaskReg& mask);
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
__aicore__ inline void ShiftRight(S& dstReg, S& srcReg0, V& srcReg1, MaskReg& mask);

// ---- fill, index, copy, reorder ------------------------------------------------------------------------
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, typename S>
__aicore__ inline void Duplicate(S& dstReg, U scalarValue, MaskReg& mask);
template <typename T = DefaultType, typename U, typename S>
__aicore__ inline void Duplicate(S& dstReg, U scalarValue);
template <typename T = DefaultType, HighLowPart pos = HighLowPart::LOWEST, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S>
__aicore__ inline void Duplicate(S& dstReg, S& srcReg, MaskReg& mask);
template <typename T = DefaultType, IndexOrder order = IndexOrder::INCREASE_ORDER, typename U, typename S>
__aicore__ inline void Arange(S& dstReg, U scalarValue);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::MERGING, typename U>
__aicore__ inline void Copy(U& dstReg, U& srcReg, MaskReg mask);
template <typename T = DefaultType, typename U>
__aicore__ inline void Copy(U& dstReg, U& srcReg);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::MERGING, typename U>
__aicore__ inline void Move(U& dstReg, U& srcReg, MaskReg mask);
template <typename T = DefaultType, typename U>
__aicore__ inline void Move(U& dstReg, U& srcReg);
template <typename T = DefaultType, typename U>
__aicore__ inline void Interleave(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1);
template <typename T = DefaultType, typename U>
__aicore__ inline void DeInterleave(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1);
template <typename T = DefaultType, typename U = DefaultType, HighLowPart part = HighLowPart::LOWEST, typename S,
          typename V>
__aicore__ inline void Pack(S& dstReg, V& srcReg);
template <typename T = DefaultType, typename U = DefaultType, HighLowPart part = HighLowPart::LOWEST, typename S,
          typename V>
__aicore__ inline void UnPack(S& dstReg, V& srcReg);
template <typename T = DefaultType, GatherMaskMode store = GatherMaskMode::NO_STORE_REG, typename U>
__aicore__ inline void GatherMask(U& dstReg, U& srcReg, MaskReg& mask);
template <typename T = DefaultType, GatherMaskMode store = GatherMaskMode::NO_STORE_REG, typename U>
__aicore__ inline void Squeeze(U& dstReg, U& srcReg, MaskReg& mask);
template <typename T = DefaultType, typename U>
__aicore__ inline void Unsqueeze(U& dstReg, MaskReg& mask);
template <typename T = DefaultType, typename U>
__aicore__ inline void PrefixSum(U& dstReg, MaskReg& mask);

// ---- conversion, compare, select, reduce ------------------------------------------------------------------
template <typename T = DefaultType, typename U = DefaultType, const CastTrait& trait = castTrait, typename S,
          typename V>
__aicore__ inline void Cast(S& dstReg, V& srcReg, MaskReg& mask);
template <typename T = DefaultType, RoundMode roundMode = RoundMode::CAST_NONE,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
__aicore__ inline void Truncate(S& dstReg, S& srcReg, MaskReg& mask);
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U>
__aicore__ inline void Compare(MaskReg& dst, U& srcReg0, U& srcReg1, MaskReg& mask);
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S>
__aicore__ inline void Compares(MaskReg& dst, U& srcReg, S scalarValue, MaskReg& mask);
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S>
__aicore__ inline void CompareScalar(MaskReg& dst, U& srcReg, S scalarValue, MaskReg& mask);
template <typename T = DefaultType, typename U>
__aicore__ inline void Select(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask);
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, typename U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
__aicore__ inline void Reduce(S& dstReg, V srcReg, MaskReg mask);
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, typename U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
__aicore__ inline void ReduceDataBlock(S& dstReg, V srcReg, MaskReg mask);
#define CURATE_REG_REDUCE(Name)                                                                            \
    template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, \
              typename S, typename V>                                                                      \
    __aicore__ inline void Name(S& dstReg, V srcReg, MaskReg mask)
CURATE_REG_REDUCE(ReduceSum);
CURATE_REG_REDUCE(ReduceMax);
CURATE_REG_REDUCE(ReduceMin);
CURATE_REG_REDUCE(ReduceMaxWithDataBlock);
CURATE_REG_REDUCE(ReduceMinWithDataBlock);
CURATE_REG_REDUCE(ReduceSumWithDataBlock);
template <PairReduce type = PairReduce::SUM, typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename U>
__aicore__ inline void PairReduceElem(U& dstReg, U srcReg, MaskReg mask);
template <typename T = DefaultType, typename U = DefaultType, HistogramsBinType mode = HistogramsBinType::BIN0,
          HistogramsType type = HistogramsType::FREQUENCY, typename S, typename V>
__aicore__ inline void Histograms(V& dstReg, S& srcReg, MaskReg& mask);

// The register type that holds an element type (approximated by the surface's register tensor),
// and the compiler rounding mode of an AscendC rounding mode (approximated as an integer).
template <typename E>
struct TypeGet {
    using T = RegTensor<E>;
};
template <RoundMode mode>
__aicore__ inline constexpr int32_t GetRound()
{
    return static_cast<int32_t>(mode);
}

}  // namespace Reg

namespace MicroAPI = Reg;

}  // namespace AscendC

// Launch a vector function (`__simd_vf__`) on the vector unit.
template <auto funcPtr, typename... Args>
__aicore__ inline void asc_vf_call(Args&&... args);

#endif  // CURATE_ASCENDC_REG_H
