// curate AscendC surface: the tensor API (`AscendC::Te`) of the CANN 9 generation, approximated.
//
// Written for curate from the public interface. The tensor API builds shapes, coordinates,
// layouts, pointers, tensors and copy/mmad atoms as deeply nested templates; the surface keeps
// their names and the kinds of their template parameters (a type where the interface takes a
// type, a value where it takes a value) but gives every value they build one approximate type,
// `CurateTeValue`, which converts from and to anything. So a misspelt name of the namespace is
// caught, and so is a type given where a value belongs; calls are not checked further.
#ifndef CURATE_ASCENDC_TENSOR_API_H
#define CURATE_ASCENDC_TENSOR_API_H

#include "ascendc/std.h"

namespace AscendC {
namespace Te {

// The approximate value of everything the tensor API builds.
struct CurateTeValue {
    __aicore__ constexpr CurateTeValue() {}
    template <typename T, typename... Ts>
    __aicore__ constexpr CurateTeValue(const T&, const Ts&...)
    {}
    template <typename T>
    __aicore__ constexpr operator T() const
    {
        return T();
    }
    template <typename... Ts>
    __aicore__ constexpr CurateTeValue operator()(const Ts&...) const
    {
        return {};
    }
    template <typename T>
    __aicore__ constexpr CurateTeValue operator[](const T&) const
    {
        return {};
    }
    __aicore__ constexpr const CurateTeValue* operator->() const { return this; }
    __aicore__ constexpr CurateTeValue operator*() const { return {}; }
    // what kernels call on tensors, layouts and pointers (any arguments)
#define CURATE_TE_MEMBER(Name)                                        \
    template <typename... CurateTypes, typename... CurateArgs>       \
    __aicore__ constexpr CurateTeValue Name(const CurateArgs&...) const \
    {                                                                 \
        return {};                                                    \
    }
    CURATE_TE_MEMBER(Layout)
    CURATE_TE_MEMBER(Data)
    CURATE_TE_MEMBER(Engine)
    CURATE_TE_MEMBER(Shape)
    CURATE_TE_MEMBER(Stride)
    CURATE_TE_MEMBER(Size)
    CURATE_TE_MEMBER(Capacity)
    CURATE_TE_MEMBER(Rank)
    CURATE_TE_MEMBER(Get)
    CURATE_TE_MEMBER(GetShape)
    CURATE_TE_MEMBER(GetStride)
    CURATE_TE_MEMBER(GetValue)
    CURATE_TE_MEMBER(SetValue)
    CURATE_TE_MEMBER(Slice)
    CURATE_TE_MEMBER(Select)
    CURATE_TE_MEMBER(Begin)
    CURATE_TE_MEMBER(SetCacheMode)
    CURATE_TE_MEMBER(SetL2CacheHint)
    CURATE_TE_MEMBER(with)
#undef CURATE_TE_MEMBER
    static constexpr size_t value = 0;
};

#define CURATE_TE_BINARY(op)                                                                \
    template <typename T>                                                                   \
    __aicore__ constexpr CurateTeValue operator op(const CurateTeValue&, const T&)          \
    {                                                                                       \
        return {};                                                                          \
    }                                                                                       \
    template <typename T>                                                                   \
    __aicore__ constexpr CurateTeValue operator op(const T&, const CurateTeValue&)          \
    {                                                                                       \
        return {};                                                                          \
    }                                                                                       \
    __aicore__ constexpr CurateTeValue operator op(const CurateTeValue&, const CurateTeValue&) \
    {                                                                                       \
        return {};                                                                          \
    }
CURATE_TE_BINARY(+)
CURATE_TE_BINARY(-)
CURATE_TE_BINARY(*)
CURATE_TE_BINARY(/)
CURATE_TE_BINARY(%)
CURATE_TE_BINARY(==)
CURATE_TE_BINARY(!=)
CURATE_TE_BINARY(<)
CURATE_TE_BINARY(>)
CURATE_TE_BINARY(<=)
CURATE_TE_BINARY(>=)
#undef CURATE_TE_BINARY

// A function of the tensor API: any arguments, and explicit template arguments of the kinds the
// interface uses (types; values; a type followed by values).
#define CURATE_TE_FUNCTION(Name)                                                  \
    template <typename... CurateTypes, typename... CurateArgs>                    \
    __aicore__ constexpr CurateTeValue Name(const CurateArgs&...)                 \
    {                                                                             \
        return {};                                                                \
    }                                                                             \
    template <auto CurateV0, auto... CurateVs, typename... CurateArgs>            \
    __aicore__ constexpr CurateTeValue Name(const CurateArgs&...)                 \
    {                                                                             \
        return {};                                                                \
    }                                                                             \
    template <typename CurateT, auto CurateV0, auto... CurateVs, typename... CurateArgs> \
    __aicore__ constexpr CurateTeValue Name(const CurateArgs&...)                 \
    {                                                                             \
        return {};                                                                \
    }

// construction of shapes, coordinates, layouts, pointers and tensors
CURATE_TE_FUNCTION(MakeShape)
CURATE_TE_FUNCTION(MakeStride)
CURATE_TE_FUNCTION(MakeTile)
CURATE_TE_FUNCTION(MakeCoord)
CURATE_TE_FUNCTION(MakeLayout)
CURATE_TE_FUNCTION(MakePatternLayout)
CURATE_TE_FUNCTION(MakeFrameLayout)
CURATE_TE_FUNCTION(MakeMemPtr)
CURATE_TE_FUNCTION(MakeTensor)
// queries and views
CURATE_TE_FUNCTION(Get)
CURATE_TE_FUNCTION(GetShape)
CURATE_TE_FUNCTION(GetStride)
CURATE_TE_FUNCTION(GetElement)
CURATE_TE_FUNCTION(GetTotalRowShape)
CURATE_TE_FUNCTION(GetTotalColumnShape)
CURATE_TE_FUNCTION(Crd2Idx)
CURATE_TE_FUNCTION(Cosize)
CURATE_TE_FUNCTION(Rank)
CURATE_TE_FUNCTION(Select)
CURATE_TE_FUNCTION(Size)
CURATE_TE_FUNCTION(Capacity)
CURATE_TE_FUNCTION(Slice)
CURATE_TE_FUNCTION(Squeeze)
// data movement and matrix multiplication
CURATE_TE_FUNCTION(MakeCopy)
CURATE_TE_FUNCTION(Copy)
CURATE_TE_FUNCTION(MakeMmad)
CURATE_TE_FUNCTION(Mmad)
CURATE_TE_FUNCTION(Fixpipe)
#undef CURATE_TE_FUNCTION

// Where a pointer points: marker types.
namespace Location {
struct INVALID {};
struct GM {};
struct UB {};
struct L1 {};
struct L0A {};
struct L0B {};
struct L0ScaleA {};
struct L0ScaleB {};
struct L0C {};
struct BIAS {};
struct FIXBUF {};
struct SSBUF {};
}  // namespace Location

namespace CopyMode {
struct NORMAL {};
struct TRANS {};
struct TRANS_B8B4 {};
}  // namespace CopyMode

// Which attribute and dimension GetElement reads: marker types.
namespace AttrInfo {
struct Shape {};
struct Stride {};
struct Row {};
struct Column {};
}  // namespace AttrInfo

// Layout patterns: marker types.
struct ZNLayoutPtn {};
struct ZZLayoutPtn {};
struct NNLayoutPtn {};
struct NZLayoutPtn {};
struct NDLayoutPtn {};
struct DNLayoutPtn {};
struct NDExtLayoutPtn {};
struct DNExtLayoutPtn {};
struct ScaleANDLayoutPtn {};
struct ScaleADNLayoutPtn {};
struct ScaleBNDLayoutPtn {};
struct ScaleBDNLayoutPtn {};

template <typename T = void, typename... Rest>
struct LayoutTrait {};
template <typename T = void, typename... Rest>
struct LayoutTraitDefault : LayoutTrait<T, Rest...> {};

// A layout format: a callable that builds the layout of a pattern from its sizes.
template <typename LayoutPattern, typename TraitType = LayoutTraitDefault<>>
struct FrameLayoutFormat {
    template <typename... Args>
    __aicore__ constexpr CurateTeValue operator()(const Args&...) const
    {
        return {};
    }
};

template <typename LayoutType>
using GetLayoutPattern = CurateTeValue;
template <typename TensorType, typename TargetLayoutPtn>
constexpr bool IsSatisfiedPtnFormatV = false;
template <typename T>
constexpr size_t C0_SIZE = 32;
template <typename T>
constexpr size_t C0_ELEMENT = C0_SIZE<T> / sizeof(T);

using Std::Int;
using _0 = Std::Int<0>;
using _1 = Std::Int<1>;
using _2 = Std::Int<2>;
using _4 = Std::Int<4>;
using _8 = Std::Int<8>;
using _16 = Std::Int<16>;
using _32 = Std::Int<32>;
using _64 = Std::Int<64>;
using _128 = Std::Int<128>;
using _256 = Std::Int<256>;
struct KeepMark {
    __aicore__ inline constexpr KeepMark() = default;
};
inline constexpr KeepMark _{};
constexpr size_t FRACTAL_FIXED = 16;
constexpr size_t MX_SCALE_K0 = 2;
constexpr uint32_t BLOCK_CUBE = 16;

template <typename... Ts>
using Shape = Std::tuple<Ts...>;
template <typename... Ts>
using Stride = Std::tuple<Ts...>;
template <typename... Ts>
using Coord = Std::tuple<Ts...>;
template <typename... Ts>
using Tile = Std::tuple<Ts...>;

enum class CacheMode : uint8_t { CACHE_MODE_NORMAL = 0, CACHE_MODE_DISABLE = 4, CACHE_MODE_LAST, CACHE_MODE_PERSISTENT };
enum class MmadType : uint8_t { NORMAL = 0, MX = 1 };
enum class RoundMode : uint8_t { DEFAULT = 0, HYBRID };
enum DualDstMode : uint8_t { DUAL_DST_DISABLE = 0, DUAL_DST_SPLIT_M, DUAL_DST_SPLIT_N };

struct MmadTrait {
    __aicore__ constexpr MmadTrait() {}
    __aicore__ constexpr MmadTrait(int32_t fmOffsetIn, bool kDirectionAlignIn, bool cmatrixSourceIn,
                                   bool disableGemvIn, MmadType mmadTypeIn)
        : fmOffset(fmOffsetIn),
          kDirectionAlign(kDirectionAlignIn),
          cmatrixSource(cmatrixSourceIn),
          disableGemv(disableGemvIn),
          mmadType(mmadTypeIn)
    {}
    int32_t fmOffset = 0;
    bool kDirectionAlign = false;
    bool cmatrixSource = false;
    bool disableGemv = true;
    MmadType mmadType = MmadType::NORMAL;
};
struct MmadParams {
    __aicore__ constexpr MmadParams() {}
    __aicore__ constexpr MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn, bool cmatrixInitValIn)
        : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixInitVal(cmatrixInitValIn)
    {}
    uint16_t m = 0;
    uint16_t n = 0;
    uint16_t k = 0;
    uint8_t unitFlag = 0;
    bool cmatrixInitVal = false;
};
struct FixpipeParams {
    __aicore__ constexpr FixpipeParams() {}
    __aicore__ constexpr FixpipeParams(uint8_t unitFlagIn, bool subBlockIdIn = false)
        : unitFlag(unitFlagIn), subBlockId(subBlockIdIn)
    {}
    uint8_t unitFlag = 0;
    bool subBlockId = false;
};

// Copy and mmad operations, their default traits, and the atoms built from them.
#define CURATE_TE_OPERATION(Name) \
    struct Name {};               \
    struct Name##TraitDefault {};
CURATE_TE_OPERATION(CopyGM2L1)
CURATE_TE_OPERATION(CopyGM2UB)
CURATE_TE_OPERATION(CopyL0C2GM)
CURATE_TE_OPERATION(CopyL0C2L1)
CURATE_TE_OPERATION(CopyL0C2UB)
CURATE_TE_OPERATION(CopyL12BT)
CURATE_TE_OPERATION(CopyL12FB)
CURATE_TE_OPERATION(CopyL12L0A)
CURATE_TE_OPERATION(CopyL12L0B)
CURATE_TE_OPERATION(CopyL12L0ScaleA)
CURATE_TE_OPERATION(CopyL12L0ScaleB)
CURATE_TE_OPERATION(CopyL12UB)
CURATE_TE_OPERATION(CopyUB2GM)
CURATE_TE_OPERATION(CopyUB2L1)
CURATE_TE_OPERATION(CopyUB2UB)
#undef CURATE_TE_OPERATION
struct MmadOperation {};
struct MmadTraitDefault {};
template <typename... Ts>
struct CopyTraits {};
template <typename... Ts>
struct CopyAtom : CurateTeValue {};
template <typename... Ts>
struct MmadTraits {};
template <typename... Ts>
struct MmadAtom : CurateTeValue {};

}  // namespace Te
}  // namespace AscendC

#endif  // CURATE_ASCENDC_TENSOR_API_H
