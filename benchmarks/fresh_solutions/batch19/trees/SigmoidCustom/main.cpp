/**
 * Host driver for logistic_squash: reads ./input/x.bin, runs the kernel,
 * writes ./output/y.bin.
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_logistic_squash.h"

#define CHECK_ACL(expr)                                                        \
    do {                                                                       \
        aclError _e = (expr);                                                  \
        if (_e != ACL_SUCCESS) {                                               \
            fprintf(stderr, "%s:%d ACL error %d\n", __FILE__, __LINE__, _e);   \
            return 1;                                                          \
        }                                                                      \
    } while (0)

struct LogisticSquashTiling {
    uint64_t totalLength;
    uint64_t perCore;
    uint32_t tileLength;
    uint32_t coreNum;
};

static bool ReadBin(const char *path, void *buf, size_t bytes)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) { fprintf(stderr, "cannot open %s\n", path); return false; }
    f.read(static_cast<char *>(buf), bytes);
    return static_cast<size_t>(f.gcount()) == bytes;
}

static bool WriteBin(const char *path, const void *buf, size_t bytes)
{
    std::ofstream f(path, std::ios::binary);
    if (!f) return false;
    f.write(static_cast<const char *>(buf), bytes);
    return true;
}

int main()
{
    const uint64_t rows = 4096;
    const uint64_t cols = 4096;   // reduced width so the sample fits in host memory comfortably
    const uint64_t total = rows * cols;
    const size_t bytes = total * sizeof(float);
    const uint32_t coreNum = 40;

    LogisticSquashTiling tiling{};
    tiling.totalLength = total;
    tiling.coreNum = coreNum;
    tiling.perCore = (total / coreNum) / 8 * 8;     // keep slices 32B aligned
    tiling.tileLength = 8192;                       // 32 KB per buffer, 4 buffers in UB

    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    std::vector<float> hostX(total), hostY(total);
    if (!ReadBin("./input/x.bin", hostX.data(), bytes)) return 1;

    void *devX = nullptr, *devY = nullptr, *devTiling = nullptr;
    CHECK_ACL(aclrtMalloc(&devX, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&devY, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&devTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(devX, bytes, hostX.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(devTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(logistic_squash)(coreNum, stream, devX, devY, devTiling);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(hostY.data(), bytes, devY, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteBin("./output/y.bin", hostY.data(), bytes);

    aclrtFree(devX);
    aclrtFree(devY);
    aclrtFree(devTiling);
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    printf("logistic_squash done\n");
    return 0;
}
