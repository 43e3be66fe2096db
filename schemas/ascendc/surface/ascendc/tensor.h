// curate AscendC surface: tensors in global and local memory.
#ifndef CURATE_ASCENDC_TENSOR_H
#define CURATE_ASCENDC_TENSOR_H

#include "ascendc/types.h"

namespace AscendC {

constexpr int32_t K_MAX_SHAPE_DIM = 8;
using TTagType = int32_t;
using TBufHandle = uint8_t*;

struct ShapeInfo {
    __aicore__ inline ShapeInfo() {}
    __aicore__ inline ShapeInfo(const uint8_t dim, const uint32_t shapeIn[], const uint8_t originalDim,
                                const uint32_t originalShapeIn[], const DataFormat format);
    __aicore__ inline ShapeInfo(const uint8_t dim, const uint32_t shapeIn[], const DataFormat format);
    __aicore__ inline ShapeInfo(const uint8_t dim, const uint32_t shapeIn[]);
    uint8_t shapeDim = 0;
    uint8_t originalShapeDim = 0;
    uint32_t shape[K_MAX_SHAPE_DIM] = {};
    uint32_t originalShape[K_MAX_SHAPE_DIM] = {};
    DataFormat dataFormat = DataFormat::ND;
};
__aicore__ inline uint64_t GetShapeSize(const ShapeInfo& shapeInfo);

// The address record a queue hands out; kernels rarely touch it directly.
struct TBuffAddr {
    uint32_t dataLen = 0;
    uint32_t bufferAddr = 0;
    TBufHandle bufferHandle = nullptr;
    uint8_t logicPos = 0;
};

// Results of the tensor operators (`dst = a + b;`), consumed by LocalTensor::operator=.
template <typename T>
class SymbolOverrideAdd {};
template <typename T>
class SymbolOverrideSub {};
template <typename T>
class SymbolOverrideMul {};
template <typename T>
class SymbolOverrideDiv {};
template <typename T>
class SymbolOverrideOr {};
template <typename T>
class SymbolOverrideAnd {};
template <typename T>
class SymbolOverrideCompare {};

// A tensor in the unified buffer (or L1/L0) handed out by a queue or a TBuf.
template <typename T>
class LocalTensor {
public:
    using PrimType = T;
    __aicore__ inline LocalTensor() {}
    __aicore__ inline LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize);
    __aicore__ inline explicit LocalTensor(uint32_t addr);
    template <typename Layout>
    __aicore__ inline LocalTensor(uint32_t addr, const Layout& layout);

    __aicore__ inline uint64_t GetPhyAddr() const;
    __aicore__ inline uint64_t GetPhyAddr(const uint32_t offset) const;
    __aicore__ inline PrimType GetValue(const uint32_t index) const;
    template <typename S>
    __aicore__ inline void SetValue(const uint32_t index, const S value) const;
    __aicore__ inline PrimType& operator()(const uint32_t offset) const;
    __aicore__ inline LocalTensor operator[](const uint32_t offset) const;
    template <typename U>
    __aicore__ inline LocalTensor<U> ReinterpretCast() const;
    template <typename S>
    __aicore__ inline void SetAddrWithOffset(LocalTensor<S>& src, uint32_t offset);
    __aicore__ inline int32_t GetPosition() const;
    __aicore__ inline void SetSize(const uint32_t size);
    __aicore__ inline uint32_t GetSize() const;
    __aicore__ inline uint32_t GetLength() const;
    __aicore__ inline void SetBufferLen(uint32_t dataLen);
    __aicore__ inline void SetUserTag(const TTagType tag);
    __aicore__ inline TTagType GetUserTag() const;
    __aicore__ inline void SetShapeInfo(const ShapeInfo& shapeInfo);
    __aicore__ inline ShapeInfo GetShapeInfo() const;
    __aicore__ inline TBufHandle GetBufferHandle() const;
    __aicore__ inline void SetAddr(const TBuffAddr& bufferAddr);
    __aicore__ inline void InitBuffer(const uint32_t bufferOffset, const uint32_t bufferSize);

    // Operator forms of Add/Sub/Mul/Div/Or/And/Compare over whole tensors.
    __aicore__ inline SymbolOverrideAdd<T> operator+(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideSub<T> operator-(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideMul<T> operator*(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideDiv<T> operator/(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideOr<T> operator|(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideAnd<T> operator&(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideCompare<T> operator<(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideCompare<T> operator>(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideCompare<T> operator!=(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideCompare<T> operator==(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideCompare<T> operator<=(const LocalTensor<T>& src1) const;
    __aicore__ inline SymbolOverrideCompare<T> operator>=(const LocalTensor<T>& src1) const;
    __aicore__ inline void operator=(const SymbolOverrideAdd<T>& symbolOverride);
    __aicore__ inline void operator=(const SymbolOverrideSub<T>& symbolOverride);
    __aicore__ inline void operator=(const SymbolOverrideMul<T>& symbolOverride);
    __aicore__ inline void operator=(const SymbolOverrideDiv<T>& symbolOverride);
    __aicore__ inline void operator=(const SymbolOverrideOr<T>& symbolOverride);
    __aicore__ inline void operator=(const SymbolOverrideAnd<T>& symbolOverride);
    template <typename U>
    __aicore__ inline void operator=(const SymbolOverrideCompare<U>& symbolOverride);

    TBuffAddr address_;
    ShapeInfo shapeInfo_;
};

// A view of global memory (a kernel argument), set from a GM_ADDR.
template <typename T>
class GlobalTensor {
public:
    using PrimType = T;
    __aicore__ inline GlobalTensor() {}
    __aicore__ inline void SetGlobalBuffer(__gm__ PrimType* buffer, uint64_t bufferSize);
    __aicore__ inline void SetGlobalBuffer(__gm__ PrimType* buffer);
    __aicore__ inline const __gm__ PrimType* GetPhyAddr() const;
    __aicore__ inline __gm__ PrimType* GetPhyAddr(const uint64_t offset) const;
    __aicore__ inline PrimType GetValue(const uint64_t offset) const;
    __aicore__ inline __gm__ PrimType& operator()(const uint64_t offset) const;
    __aicore__ inline void SetValue(const uint64_t offset, PrimType value);
    __aicore__ inline uint64_t GetSize() const;
    __aicore__ inline GlobalTensor operator[](const uint64_t offset) const;
    __aicore__ inline void SetShapeInfo(const ShapeInfo& shapeInfo);
    __aicore__ inline ShapeInfo GetShapeInfo() const;
    template <CacheRwMode rwMode = CacheRwMode::RW>
    __aicore__ inline void SetL2CacheHint(CacheMode mode);
    template <typename U>
    __aicore__ inline GlobalTensor<U> ReinterpretCast() const;

    __gm__ PrimType* address_ = nullptr;
    uint64_t bufferSize_ = 0;
    ShapeInfo shapeInfo_;
    CacheMode cacheMode_ = CacheMode::CACHE_MODE_NORMAL;
};

// Hands out local tensors at increasing addresses without a pipe (static allocation).
template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
public:
    __aicore__ inline LocalMemAllocator();
    __aicore__ inline uint32_t GetCurAddr() const;
    template <TPosition pos, class DataType, uint32_t tileSize>
    __aicore__ inline LocalTensor<DataType> Alloc();
    template <TPosition pos, class DataType>
    __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize);
    template <class DataType, uint32_t tileSize>
    __aicore__ inline LocalTensor<DataType> Alloc();
    template <class DataType>
    __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize);
    template <class DataType>
    __aicore__ inline LocalTensor<DataType> Alloc();
};

// Dynamic (list) inputs: a descriptor in global memory listing several tensors.
template <class T>
class TensorDesc {
public:
    __aicore__ inline TensorDesc() {}
    __aicore__ inline void SetShapeAddr(uint64_t* shapePtr);
    __aicore__ inline uint64_t GetDim();
    __aicore__ inline uint64_t GetIndex();
    __aicore__ inline uint64_t GetShape(uint32_t offset);
    __aicore__ inline __gm__ T* GetDataPtr();
    __aicore__ inline GlobalTensor<T> GetDataObj();
};
class ListTensorDesc {
public:
    __aicore__ inline ListTensorDesc() {}
    __aicore__ inline ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff);
    __aicore__ inline void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff);
    template <class T>
    __aicore__ inline void GetDesc(TensorDesc<T>& desc, uint32_t index);
    template <class T>
    __aicore__ inline __gm__ T* GetDataPtr(uint32_t index);
    __aicore__ inline uint32_t GetSize();
};

}  // namespace AscendC

#endif  // CURATE_ASCENDC_TENSOR_H
