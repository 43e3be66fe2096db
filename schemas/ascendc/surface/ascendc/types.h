// curate AscendC surface: enumerations, constants and compile-time helpers of namespace AscendC.
// Names and enumerator lists follow the public AscendC interface; the declarations are ours.
#ifndef CURATE_ASCENDC_TYPES_H
#define CURATE_ASCENDC_TYPES_H

#include "asc_prelude.h"

namespace AscendC {

// ---- storage positions, events, pipes -------------------------------------------------------
enum class TPosition : uint8_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    C2PIPE2GM,
    C2PIPE2LOCAL,
    MAX,
};
using QuePosition = TPosition;
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

enum class HardEvent : uint8_t {
    MTE2_MTE1,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
    FIX_V,  // the SoCs with a fixpipe-to-vector path
    V_FIX,
    MAX,
};
using TEventID = int8_t;
// Ascend950 MX kernels spell the scale element type in the namespace (AscendC::fp8_e8m0_t).
using ::fp8_e8m0_t;
enum class MemoryT : uint8_t { L1 = 0, L0A, L0B, L0C, UB, BIAS };
enum class MemDsbT : uint8_t { ALL = 0, DDR, UB, SEQ };
enum class TBufState : uint8_t { FREE = 0, OCCUPIED, ENQUE, DEQUE };
enum class EngineType : int32_t { AIC = 1, AIV = 2 };

// ---- modes of vector instructions ------------------------------------------------------------
enum class RoundMode : uint8_t {
    CAST_NONE = 0,
    CAST_RINT,
    CAST_FLOOR,
    CAST_CEIL,
    CAST_ROUND,
    CAST_TRUNC,
    CAST_ODD,
    CAST_HYBRID,
    CAST_EVEN,  // Ascend950 class
    CAST_ZERO,
    UNKNOWN = 0xFF,
};
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class DeqScale : uint8_t { DEQ_NONE = 0, DEQ, VDEQ, DEQ8, VDEQ8, DEQ16, VDEQ16 };
enum class BlockMode : uint8_t {
    BLOCK_MODE_NORMAL = 0,
    BLOCK_MODE_MATRIX,
    BLOCK_MODE_VECTOR,
    BLOCK_MODE_SMALL_CHANNEL,
    BLOCK_MODE_DEPTHWISE,
};
enum class ReduceMode : uint8_t { REDUCE_MAX = 0, REDUCE_MIN, REDUCE_SUM };
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
enum class CLAMPMODE : uint8_t { CLAMP_MAX = 0, CLAMP_MIN };
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
enum class CacheMode : uint8_t { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL, CACHE_MODE_LAST, CACHE_MODE_PERSISTENT };
enum class CacheRwMode : uint8_t { READ = 1, WRITE = 2, RW = 3 };
enum class SpecialPurposeReg : uint8_t { AR = 0 };
enum class DataFormat : uint8_t { ND = 0, NZ, NCHW, NC1HWC0, NHWC, NCDHW, NDC1HWC0, FRACTAL_Z_3D };
enum class DataCopyMVType : uint8_t { UB_TO_OUT = 0, OUT_TO_UB = 1 };
enum class PaddingMode : uint8_t { Normal = 0, Compact };
enum class AtomicType : uint8_t { SUM = 0, MAX, MIN };
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW,
    TRANSPOSE_ND2ND_021,
    TRANSPOSE_ND2ND_102,
    TRANSPOSE_ND2ND_210,
    TRANSPOSE_ND2NZ_WITH_INTLV,
};
enum class ReluMode : uint8_t { NO_RELU = 0, NORMAL_RELU, SCALAR_RELU, VECTOR_RELU };
enum class ClipReluMode : uint8_t { NOCLIP_RELU = 0, CLIP_RELU };
enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };
enum class SaturationMode : uint8_t { FLOAT = 0, FLOAT8, INT, CAST };
enum class HF32Mode : uint8_t { ENABLE = 0, DISABLE };
enum class HF32TransMode : uint8_t { NEAREST_ZERO = 0, NEAREST_EVEN };
enum class FmatrixMode : uint8_t { FMATRIX_LEFT = 0, FMATRIX_RIGHT };
enum class LoopMode : uint8_t { MODE_NM = 0, MODE_MN, MODE_KM, MODE_KN };
enum class AtomicDtype : uint8_t { ATOMIC_NONE = 0, ATOMIC_F32, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 };
enum class AtomicOp : uint8_t { ATOMIC_SUM = 0 };
enum class DumpType : uint8_t { DUMP_DEFAULT = 0, DUMP_SCALAR, DUMP_TENSOR, DUMP_SHAPE, DUMP_ASSERT, DUMP_META, DUMP_TIME_STAMP };
enum class DeQuantMode : uint8_t { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };
enum class TShapeType : uint8_t { DEFAULT = 0, NHWC, NC1HWC0, NHC, NCHT, ND, FRACTAL_NZ, HNC, HCNT, NDHWC, NCHW, NCH, HWCN };

// Precision/algorithm choices of the newer math interfaces.
enum class ExpAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
enum class LnAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
enum class LogAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
enum class ReciprocalAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
enum class DivAlgo {
    INTRINSIC = 0,
    DIFF_COMPENSATION,
    PRECISION_1ULP_FTZ_TRUE,
    PRECISION_0ULP_FTZ_TRUE,
    PRECISION_0ULP_FTZ_FALSE,
    PRECISION_1ULP_FTZ_FALSE,
};
enum class SqrtAlgo { INTRINSIC = 0, FAST_INVERSE, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE };
enum class RsqrtAlgo { INTRINSIC = 0, FAST_INVERSE, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE };
enum class ExpSpecificMode { NONE = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
enum class LogSpecificMode { NONE = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
enum class SqrtSpecificMode { NONE = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
enum class DivSpecificMode { NONE = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE, PRECISION_0ULP_FTZ_TRUE };
struct ExpConfig {
    ExpAlgo algo = ExpAlgo::INTRINSIC;
};
struct LnConfig {
    LnAlgo algo = LnAlgo::INTRINSIC;
};
struct LogConfig {
    LogAlgo algo = LogAlgo::INTRINSIC;
};
struct SqrtConfig {
    SqrtAlgo algo = SqrtAlgo::INTRINSIC;
};
struct DivConfig {
    DivAlgo algo = DivAlgo::INTRINSIC;
};
struct RsqrtConfig {
    RsqrtAlgo algo = RsqrtAlgo::INTRINSIC;
};
constexpr RsqrtConfig DEFAULT_RSQRT_CONFIG = {};
struct ReciprocalConfig {
    ReciprocalAlgo algo = ReciprocalAlgo::INTRINSIC;
};
constexpr ExpConfig DEFAULT_EXP_CONFIG = {};
constexpr LnConfig DEFAULT_LN_CONFIG = {};
constexpr LogConfig DEFAULT_LOG_CONFIG = {};
constexpr SqrtConfig DEFAULT_SQRT_CONFIG = {};
constexpr DivConfig DEFAULT_DIV_CONFIG = {};
constexpr ReciprocalConfig DEFAULT_RECIPROCAL_CONFIG = {};

// ---- constants of the memory hierarchy -------------------------------------------------------
constexpr uint16_t ONE_BLK_SIZE = 32;
constexpr uint32_t ONE_BLOCK_SIZE = 32;
constexpr uint32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr uint16_t DEFAULT_BLK_NUM = 8;
constexpr uint16_t DEFAULT_BLK_STRIDE = 1;
constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint16_t DEFAULT_DATA_COPY_NBURST = 1;
constexpr uint16_t DEFAULT_DATA_COPY_STRIDE = 0;
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t CUBE_MAX_SIZE = 256;
constexpr int32_t BYTE_PER_FRACTAL = 512;
constexpr uint32_t VECTOR_REG_WIDTH = 256;
constexpr uint32_t VECTOR_REG_WIDTH_2XVL = 512;
constexpr uint64_t MASK_PLACEHOLDER = 0;
constexpr uint64_t FULL_MASK = 0xFFFFFFFFFFFFFFFFul;
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
constexpr uint32_t TOTAL_L1_SIZE = 512 * 1024;
constexpr uint32_t TOTAL_L0A_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0B_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0C_SIZE = 128 * 1024;
constexpr uint32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;  // Ascend910B values
constexpr uint32_t TMP_UB_OFFSET = 184 * 1024;
constexpr uint32_t SINGLE_MSG_SIZE = 64;
constexpr uint32_t CACHE_LINE_SIZE = 64;
constexpr uint16_t AIV_CORE_NUM = 50;
constexpr uint16_t SYNC_AIC_AIV_FLAG = 4;
constexpr size_t RESERVED_WORKSPACE = 16 * 1024 * 1024;
constexpr int32_t QBUF_MAX_LEN = 64;

// ---- compile-time helpers ----------------------------------------------------------------------
struct TrueType {
    static constexpr bool value = true;
};
struct FalseType {
    static constexpr bool value = false;
};
template <typename T, typename U>
struct IsSameType : public FalseType {};
template <typename T>
struct IsSameType<T, T> : public TrueType {};
template <bool condition, class T1, class T2>
struct Conditional {
    using type = T1;
};
template <class T1, class T2>
struct Conditional<false, T1, T2> {
    using type = T2;
};
template <typename T>
struct SizeOfBits {
    static constexpr uint32_t value = sizeof(T) * 8;
};
template <typename T>
class LocalTensor;
// Limits of an element type, as scalars or written into a tensor.
template <typename T>
struct NumericLimits {
    __aicore__ static constexpr T Max() { return T(); }
    __aicore__ static constexpr T Min() { return T(); }
    __aicore__ static constexpr T Lowest() { return T(); }
    __aicore__ static constexpr T Infinity() { return T(); }
    __aicore__ static constexpr T NegativeInfinity() { return T(); }
    __aicore__ static constexpr T QuietNaN() { return T(); }
    __aicore__ static constexpr T SignalingNaN() { return T(); }
    __aicore__ static constexpr T DeNormMin() { return T(); }
    __aicore__ static inline void Max(const LocalTensor<T>& dst, uint32_t count);
    __aicore__ static inline void Min(const LocalTensor<T>& dst, uint32_t count);
    __aicore__ static inline void Lowest(const LocalTensor<T>& dst, uint32_t count);
    __aicore__ static inline void Infinity(const LocalTensor<T>& dst, uint32_t count);
    __aicore__ static inline void NegativeInfinity(const LocalTensor<T>& dst, uint32_t count);
    __aicore__ static inline void QuietNaN(const LocalTensor<T>& dst, uint32_t count);
    __aicore__ static inline void SignalingNaN(const LocalTensor<T>& dst, uint32_t count);
    __aicore__ static inline void DeNormMin(const LocalTensor<T>& dst, uint32_t count);
};

// Integer helpers that the framework exposes to kernels.
__aicore__ inline int32_t CeilDivision(int32_t num1, int32_t num2);
__aicore__ inline uint32_t AlignUp(uint32_t a, uint32_t b);
__aicore__ inline uint32_t DivCeil(uint32_t a, uint32_t b);
template <typename T>
__aicore__ inline T CeilAlign(T num1, T num2);
template <typename T>
__aicore__ inline T Align(T num1, T num2);
__aicore__ inline constexpr int16_t GetDataBlockSizeInBytes() { return ONE_BLK_SIZE; }
__aicore__ inline constexpr uint32_t GetVecLen() { return VECTOR_REG_WIDTH; }
__aicore__ inline constexpr uint32_t GetUBSizeInBytes() { return TOTAL_UB_SIZE; }
__aicore__ inline uint32_t GetRuntimeUBSize();
template <typename T>
__aicore__ inline void GetUintDivMagicAndShift(T& magic, T& shift, T divisor);
__aicore__ inline int64_t GetSystemCycle();

}  // namespace AscendC

#endif  // CURATE_ASCENDC_TYPES_H
