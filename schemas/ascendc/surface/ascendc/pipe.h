// curate AscendC surface: the pipe, its queues and buffers.
#ifndef CURATE_ASCENDC_PIPE_H
#define CURATE_ASCENDC_PIPE_H

#include "ascendc/tensor.h"

namespace AscendC {

// A queue between two logical positions with `depth` buffers (depth 2 = double buffering).
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind {
public:
    __aicore__ inline TQueBind() {}
    template <typename T>
    __aicore__ inline LocalTensor<T> AllocTensor();
    template <typename T>
    __aicore__ inline void AllocTensor(LocalTensor<T>& tensor);
    template <typename T>
    __aicore__ inline void FreeTensor(LocalTensor<T>& tensor);
    template <typename T>
    __aicore__ inline bool EnQue(const LocalTensor<T>& tensor);
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    __aicore__ inline bool EnQue(const LocalTensor<T>& tensor);
    __aicore__ inline bool EnQue(TBufHandle buf);
    template <typename T>
    __aicore__ inline LocalTensor<T> DeQue();
    template <typename T>
    __aicore__ inline void DeQue(LocalTensor<T>& tensor);
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    __aicore__ inline LocalTensor<T> DeQue();
    __aicore__ inline TBufHandle DeQue();
    __aicore__ inline TBufHandle AllocBuffer();
    __aicore__ inline void FreeBuffer(TBufHandle buf);
    __aicore__ inline TBuffAddr GetBufferAddr(TBufHandle buf);
    __aicore__ inline bool VacantInQue();
    __aicore__ inline bool HasTensorInQue();
    __aicore__ inline int32_t GetTensorCountInQue();
    __aicore__ inline bool HasIdleBuffer();
    __aicore__ inline void FreeAllEvent();
    template <typename T>
    __aicore__ inline TBufState GetState(const LocalTensor<T>& tensor) const;
    // how a user-defined buffer pool (TBufPool) hands its memory to the queue
    __aicore__ inline void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len);
    template <typename T>
    __aicore__ inline void InitBufHandle(T* bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr,
                                         uint32_t len);
};

// A queue at one position (VECIN, VECOUT, A1, B2, ...).
template <TPosition pos, int32_t depth, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {
public:
    __aicore__ inline TQue() {}
};

// A buffer without queue semantics, for temporaries (usually at VECCALC).
template <TPosition pos = TPosition::VECCALC>
class TBuf : public TQueBind<pos, pos, 0, 0> {
public:
    __aicore__ inline TBuf() {}
    template <typename T>
    __aicore__ inline LocalTensor<T> Get();
    template <typename T>
    __aicore__ inline LocalTensor<T> Get(uint32_t len);
    template <typename T>
    __aicore__ inline LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset);
    __aicore__ inline uint32_t GetBufLen() const;
};

// A sub-pool of the pipe's memory whose buffers can be reset and reused per stage.
template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
public:
    __aicore__ inline TBufPool() {}
    template <class T>
    __aicore__ inline bool InitBuffer(T& que, uint8_t num, uint32_t len);
    template <TPosition bufPos>
    __aicore__ inline bool InitBuffer(TBuf<bufPos>& buf, uint32_t len);
    template <class T>
    __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len);
    template <class T, class U>
    __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf);
    __aicore__ inline void Reset();
    __aicore__ inline void Init();
    __aicore__ inline void ResetPool();
};

// Explicit synchronisation between two pipes through an event id.
template <pipe_t src, pipe_t dst>
class TQueSync {
public:
    __aicore__ inline void SetFlag(TEventID id);
    __aicore__ inline void WaitFlag(TEventID id);
};

// Owns the on-chip memory of a kernel: queues and buffers are carved out with InitBuffer.
class TPipe {
public:
    __aicore__ inline TPipe();
    __aicore__ inline void Init();
    template <class T>
    __aicore__ inline bool InitBuffer(T& que, uint8_t num, uint32_t len);
    template <TPosition pos>
    __aicore__ inline bool InitBuffer(TBuf<pos>& buf, uint32_t len);
    template <class T>
    __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len);
    template <class T, class U>
    __aicore__ inline bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf);
    template <HardEvent evt>
    __aicore__ inline TEventID AllocEventID();
    template <HardEvent evt>
    __aicore__ inline void ReleaseEventID(TEventID id);
    template <HardEvent evt>
    __aicore__ inline TEventID FetchEventID();
    __aicore__ inline TEventID FetchEventID(HardEvent evt);
    template <TPosition pos, typename T>
    __aicore__ inline LocalTensor<T> GetAbsAddr(int32_t offset, int32_t size);
    template <TPosition pos>
    __aicore__ inline TBuffAddr GetAbsAddr(int32_t offset, int32_t len);
    template <typename T>
    __aicore__ inline void InitSpmBuffer(const GlobalTensor<T>& workspace, const int32_t bufferSize);
    __aicore__ inline void InitSpmBuffer(const int32_t bufferSize);
    template <typename T>
    __aicore__ inline void WriteSpmBuffer(const LocalTensor<T>& writeBuffer, const int32_t writeSize,
                                          int32_t writeOffset = 0);
    template <typename T>
    __aicore__ inline void ReadSpmBuffer(const LocalTensor<T>& readBuffer, const int32_t readSize,
                                         int32_t readOffset = 0);
    __aicore__ inline void Destroy();
    __aicore__ inline void DestroyWithoutPipeAll();
    __aicore__ inline void Reset();
    __aicore__ inline void InitSocState();
    __aicore__ inline void ResetPool();
    template <TPosition pos>
    __aicore__ inline uint64_t GetQueueEndAddress();
};

// Take the unused rest of the unified buffer as one tensor (stack-style allocation).
template <typename T, TPosition pos>
__aicore__ inline bool PopStackBuffer(LocalTensor<T>& pop);
template <TPosition pos>
__aicore__ inline bool PopStackBuffer(TBuf<pos>& popBuffer, TBuffAddr& bufStart);

// A queue bound from a position to the TSCM (L1 shared with the vector core).
template <TPosition pos, int32_t depth = 1, auto mask = 0>
using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;
// Static queue configuration (the `mask` of TQue in CANN 8).
struct TQueConfig {
    bool nd2nz = false;
    bool nz2nd = false;
    bool scmBlockGroup = false;
    uint32_t bufferLen = 0;
    uint32_t bufferNumber = 0;
    uint32_t consumerSize = 0;
    TPosition consumer[8] = {};
    bool enableStaticEvtId = false;
    bool enableLoopQueue = false;
};

}  // namespace AscendC

// The pipe of the running kernel (declared outside the namespace, as the framework does).
__aicore__ inline AscendC::TPipe* GetTPipePtr();

#endif  // CURATE_ASCENDC_PIPE_H
