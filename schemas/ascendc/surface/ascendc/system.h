// curate AscendC surface: synchronisation, core queries, atomics, masks, workspaces and debugging.
#ifndef CURATE_ASCENDC_SYSTEM_H
#define CURATE_ASCENDC_SYSTEM_H

#include "ascendc/tensor.h"

// Branch-prediction hints the interface defines for kernels.
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

namespace AscendC {

// ---- synchronisation between pipes, cores and blocks -------------------------------------------
template <pipe_t pipe>
__aicore__ inline void PipeBarrier();
template <HardEvent event>
__aicore__ inline void SetFlag(int32_t eventID);
template <HardEvent event>
__aicore__ inline void WaitFlag(int32_t eventID);
template <MemDsbT arg0>
__aicore__ inline void DataSyncBarrier();
struct SyncAllConfig {
    bool useHardware = false;
};
constexpr SyncAllConfig DEFAULT_SYNC_ALL_CONFIG = {};
template <bool isAIVOnly = true, const SyncAllConfig& config = DEFAULT_SYNC_ALL_CONFIG>
__aicore__ inline void SyncAll();
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                               const int32_t usedCores = 0);
template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreSetFlag(uint16_t flagId);
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId);
template <bool isAIVOnly = true>
__aicore__ inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                             int32_t blockIdx, int32_t eventID);
template <bool isAIVOnly = true>
__aicore__ inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                              int32_t blockIdx, int32_t eventID);

// Cross-core events of the cube/vector pair (matmul client and server).
__aicore__ inline void WaitEvent(uint16_t flagId);
template <pipe_t pipe>
__aicore__ inline void NotifyEvent(uint16_t flagId);

using MutexID = uint8_t;
__aicore__ inline MutexID AllocMutexID();
__aicore__ inline void ReleaseMutexID(MutexID id);
class Mutex {
public:
    template <pipe_t pipe>
    static __aicore__ inline void Lock(MutexID id);
    template <pipe_t pipe>
    static __aicore__ inline void Unlock(MutexID id);
};

// ---- where am I ----------------------------------------------------------------------------------
__aicore__ inline int64_t GetBlockIdx();
__aicore__ inline int64_t GetBlockNum();
__aicore__ inline int64_t GetSubBlockIdx();
__aicore__ inline int64_t GetSubBlockNum();
__aicore__ inline int64_t GetTaskRatio();
__aicore__ inline int64_t GetTaskRation();  // the older spelling, still declared
__aicore__ inline int64_t GetProgramCounter();
__aicore__ inline void GetArchVersion(uint32_t& coreVersion);
__aicore__ inline void Trap();
__aicore__ inline void InitSocState();
__aicore__ inline void Barrier();  // a compiler memory barrier

// ---- workspaces ---------------------------------------------------------------------------------
__aicore__ inline void SetSysWorkspace(GM_ADDR workspace);
__aicore__ inline void SetSysWorkspaceForce(GM_ADDR workspace);
__aicore__ inline GM_ADDR GetUserWorkspace(GM_ADDR workspace);
__aicore__ inline GM_ADDR GetSysWorkSpacePtr();

// ---- scalar atomics on global memory --------------------------------------------------------------
template <typename T>
__aicore__ inline T AtomicAdd(__gm__ T* address, T value);
template <typename T>
__aicore__ inline T AtomicMax(__gm__ T* address, T value);
template <typename T>
__aicore__ inline T AtomicMin(__gm__ T* address, T value);
template <typename T>
__aicore__ inline T AtomicExch(__gm__ T* address, T value);
template <typename T>
__aicore__ inline T AtomicCas(__gm__ T* address, T compare, T value);

// ---- atomic accumulation of DataCopy into global memory ------------------------------------------
template <typename T>
__aicore__ inline void SetAtomicAdd();
template <typename T>
__aicore__ inline void SetAtomicMax();
template <typename T>
__aicore__ inline void SetAtomicMin();
template <typename T>
__aicore__ inline void SetAtomicType();
__aicore__ inline void SetAtomicNone();
__aicore__ inline void DisableDmaAtomic();  // the newer name of SetAtomicNone

// ---- vector masks and control registers ---------------------------------------------------------
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow);
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(int32_t len);
__aicore__ inline void ResetMask();
__aicore__ inline void SetMaskNorm();
__aicore__ inline void SetMaskCount();
template <int8_t startBit, int8_t endBit>
__aicore__ inline void SetCtrlSpr(int64_t value);
template <int8_t startBit, int8_t endBit>
__aicore__ inline int64_t GetCtrlSpr();
template <int8_t startBit, int8_t endBit>
__aicore__ inline void ResetCtrlSpr();
__aicore__ inline void SetHF32Mode(bool hf32Mode);
__aicore__ inline void SetHF32Mode(HF32Mode mode);
__aicore__ inline void SetHF32TransMode(bool hf32TransMode);

// ---- scalar bit utilities -----------------------------------------------------------------------
__aicore__ inline int64_t ScalarCountLeadingZero(uint64_t valueIn);
template <int countValue>
__aicore__ inline int64_t ScalarGetCountOfValue(uint64_t valueIn);
template <int countValue>
__aicore__ inline int64_t ScalarGetSFFValue(uint64_t valueIn);
template <typename T>
__aicore__ inline uint64_t GetScalarBitcodeValue(T scalarValue);
template <typename T, typename U>
__aicore__ inline U GetScalarBitcodeValue(T scalarValue);
__aicore__ inline float ToFloat(const bfloat16_t& bVal);
template <typename T>
__aicore__ inline float ToFloat(const T& bVal);
__aicore__ inline bfloat16_t ToBfloat16(const float& fVal);
template <typename T>
__aicore__ inline void OOMCheckAddrRange(T* gmAddr, const uint64_t gmSize);

// ---- debugging ----------------------------------------------------------------------------------
template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize);
template <typename T>
__aicore__ inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                                  const ShapeInfo& shapeInfo);
template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize);
template <typename T>
__aicore__ inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize,
                                  const ShapeInfo& shapeInfo);
template <typename T>
__aicore__ inline void DumpAccChkPoint(const LocalTensor<T>& tensor, uint32_t index, uint32_t countOff,
                                       uint32_t dumpSize);
template <typename T>
__aicore__ inline void DumpAccChkPoint(const GlobalTensor<T>& tensor, uint32_t index, uint32_t countOff,
                                       uint32_t dumpSize);
template <class... Args>
__aicore__ inline void printf(const char* fmt, Args&&... args);
template <class... Args>
__aicore__ inline void PRINTF(const char* fmt, Args&&... args);
__aicore__ inline void PrintTimeStamp(uint32_t descId);

// Framework utilities some kernels call directly.
class AscendCUtils {
public:
    __aicore__ static inline int32_t GetBitSize(int32_t byteSize);
    __aicore__ static inline int32_t GetC0Count(const int32_t dtypeSize);
    __aicore__ static inline int64_t GetRsvdCnt();
    __aicore__ static inline void SetMask(const uint64_t& maskHigh, const uint64_t& maskLow);
    __aicore__ static inline void SetMask(int32_t len);
    __aicore__ static inline void SetMaskCount();
    __aicore__ static inline void SetMaskNorm();
    __aicore__ static inline void ResetMask();
    __aicore__ static inline void InitSocStateImpl();
    __aicore__ static inline void SetOverflow(uint64_t ctrlValue);
};

// Deterministic accumulation across cores: each core waits for the previous one, then signals
// the next (a counter per core in global memory, staged through a local buffer).
__aicore__ inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace,
                                                     LocalTensor<int32_t>& ubWorkspace);
__aicore__ inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace);
__aicore__ inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace);

// Scalar access to global memory that bypasses the data cache.
template <typename T>
__aicore__ inline void WriteGmByPassDCache(__gm__ T* addr, T value);
template <typename T>
__aicore__ inline T ReadGmByPassDCache(__gm__ T* addr);

// A barrier between groups of cores (arrivers and waiters) through global memory.
enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };
template <PipeMode pipeMode>
class GroupBarrier {
public:
    __aicore__ inline GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn);
    __aicore__ inline void Arrive(uint32_t arriveIndex);
    __aicore__ inline void Wait(uint32_t waitIndex);
    __aicore__ inline uint64_t GetWorkspaceLen();
};

}  // namespace AscendC

// The core's cycle counter (utils/debug/asc_time.h), for timing stretches of a kernel.
__aicore__ inline uint64_t clock();

// Device-side assertions and printing, usable outside the namespace as well. In a device build
// (no CPU debugging) ASSERT expands to nothing at all, so code such as `n ASSERT(n != 0)` compiles;
// ASSERT_MSG keeps its condition (a statement) and ignores the message.
#define ascendc_assert(...) ((void)0)
// Device-side assert: a condition, optionally a message format and its arguments.
#undef assert
#define assert(expr, ...) ((void)(expr))
#ifndef ASSERT
#define ASSERT(x)
#endif
#define ASSERT_MSG(expr, fmt, ...) \
    do {                           \
        if (!(expr)) {             \
        }                          \
    } while (0)
#define ASCENDC_ASSERT(cond, behavior) ((void)0)
#define KERNEL_LOG(level, ...) ((void)0)
#define TRACE_START(id) ((void)0)
#define TRACE_STOP(id) ((void)0)
using AscendC::printf;
using AscendC::PRINTF;

#endif  // CURATE_ASCENDC_SYSTEM_H
