// Host side of row_scatter_accum: reads x / idx / src, runs the kernel, dumps out.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <vector>
#include "acl/acl.h"

struct RowScatterAccumTiling {
    uint32_t dstRows;
    uint32_t cols;
    uint32_t srcRows;
    uint32_t stripCols;
    uint32_t stripCount;
    uint32_t srcBatch;
};

extern void row_scatter_accum_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *idx, uint8_t *src,
                                 uint8_t *out, uint8_t *tiling);

#define ACL_OK(call)                                                         \
    do {                                                                     \
        auto rc_ = (call);                                                   \
        if (rc_ != ACL_SUCCESS) {                                            \
            printf("%s:%d %s -> %d\n", __FILE__, __LINE__, #call, (int)rc_); \
            exit(1);                                                         \
        }                                                                    \
    } while (0)

template <typename T>
static std::vector<T> Load(const char *name, size_t count)
{
    std::vector<T> v(count);
    std::ifstream in(name, std::ios::binary);
    if (!in.read(reinterpret_cast<char *>(v.data()), count * sizeof(T))) {
        printf("failed to read %s\n", name);
        exit(1);
    }
    return v;
}

static void *ToDevice(const void *host, size_t bytes)
{
    void *dev = nullptr;
    ACL_OK(aclrtMalloc(&dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    if (host != nullptr) {
        ACL_OK(aclrtMemcpy(dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    return dev;
}

int main()
{
    const uint32_t dstRows = 1024, cols = 4096, srcRows = 8192;
    const uint32_t blockDim = 32;

    RowScatterAccumTiling tiling;
    tiling.dstRows = dstRows;
    tiling.cols = cols;
    tiling.srcRows = srcRows;
    // the destination strip must sit in UB: 1024 rows * 32 floats = 128 KB
    tiling.stripCols = 32;
    tiling.stripCount = cols / tiling.stripCols;
    tiling.srcBatch = 64;  // 64 * 32 * 4 = 8 KB per in-flight batch

    auto x = Load<float>("./input/x.bin", (size_t)dstRows * cols);
    auto idx = Load<int64_t>("./input/index.bin", srcRows);
    auto src = Load<float>("./input/src.bin", (size_t)srcRows * cols);
    size_t outBytes = (size_t)dstRows * cols * sizeof(float);

    ACL_OK(aclInit(nullptr));
    ACL_OK(aclrtSetDevice(0));
    aclrtStream stream;
    ACL_OK(aclrtCreateStream(&stream));

    auto *dX = static_cast<uint8_t *>(ToDevice(x.data(), x.size() * sizeof(float)));
    auto *dIdx = static_cast<uint8_t *>(ToDevice(idx.data(), idx.size() * sizeof(int64_t)));
    auto *dSrc = static_cast<uint8_t *>(ToDevice(src.data(), src.size() * sizeof(float)));
    auto *dOut = static_cast<uint8_t *>(ToDevice(nullptr, outBytes));
    auto *dTiling = static_cast<uint8_t *>(ToDevice(&tiling, sizeof(tiling)));

    row_scatter_accum_do(blockDim, stream, dX, dIdx, dSrc, dOut, dTiling);
    ACL_OK(aclrtSynchronizeStream(stream));

    std::vector<float> out((size_t)dstRows * cols);
    ACL_OK(aclrtMemcpy(out.data(), outBytes, dOut, outBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output.bin", std::ios::binary).write(reinterpret_cast<char *>(out.data()), outBytes);

    for (void *p : {(void *)dX, (void *)dIdx, (void *)dSrc, (void *)dOut, (void *)dTiling}) {
        aclrtFree(p);
    }
    ACL_OK(aclrtDestroyStream(stream));
    ACL_OK(aclrtResetDevice(0));
    ACL_OK(aclFinalize());
    return 0;
}
