/**
 * Host driver for channel_batch_standardize.
 * Reads ./input/*.bin, launches the kernel once, writes ./output/output_y.bin.
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_channel_batch_standardize.h"

#define CHECK_ACL(expr)                                                              \
    do {                                                                             \
        aclError _ret = (expr);                                                      \
        if (_ret != ACL_SUCCESS) {                                                   \
            fprintf(stderr, "[ERROR] %s failed at %s:%d, ret=%d\n", #expr, __FILE__, \
                    __LINE__, static_cast<int>(_ret));                               \
            return 1;                                                                \
        }                                                                            \
    } while (0)

struct ChannelBatchStandardizeTiling {
    uint32_t batch;
    uint32_t channels;
    uint32_t planeSize;
    uint32_t tileLen;
    uint32_t chPerCore;
    uint32_t chRemainder;
    float eps;
};

static bool ReadBin(const std::string &path, void *buf, size_t bytes)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path.c_str());
        return false;
    }
    f.read(static_cast<char *>(buf), static_cast<std::streamsize>(bytes));
    return static_cast<size_t>(f.gcount()) == bytes;
}

static bool WriteBin(const std::string &path, const void *buf, size_t bytes)
{
    std::ofstream f(path, std::ios::binary);
    if (!f) {
        return false;
    }
    f.write(static_cast<const char *>(buf), static_cast<std::streamsize>(bytes));
    return true;
}

int main()
{
    constexpr uint32_t N = 16;
    constexpr uint32_t C = 64;
    constexpr uint32_t H = 128;
    constexpr uint32_t W = 128;
    constexpr uint32_t BLOCK_DIM = 32;

    const size_t elems = static_cast<size_t>(N) * C * H * W;
    const size_t xBytes = elems * sizeof(float);
    const size_t cBytes = C * sizeof(float);

    ChannelBatchStandardizeTiling tiling{};
    tiling.batch = N;
    tiling.channels = C;
    tiling.planeSize = H * W;
    tiling.tileLen = 4096;
    while (tiling.planeSize % tiling.tileLen != 0) {
        tiling.tileLen /= 2;
    }
    tiling.chPerCore = C / BLOCK_DIM;
    tiling.chRemainder = C % BLOCK_DIM;
    tiling.eps = 1e-5f;

    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    std::vector<float> hostX(elems), hostGamma(C), hostBeta(C), hostY(elems);
    if (!ReadBin("./input/input_x.bin", hostX.data(), xBytes) ||
        !ReadBin("./input/input_gamma.bin", hostGamma.data(), cBytes) ||
        !ReadBin("./input/input_beta.bin", hostBeta.data(), cBytes)) {
        return 1;
    }

    void *dX = nullptr, *dGamma = nullptr, *dBeta = nullptr, *dY = nullptr, *dTiling = nullptr;
    CHECK_ACL(aclrtMalloc(&dX, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dY, xBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dGamma, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dBeta, cBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dTiling, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));

    CHECK_ACL(aclrtMemcpy(dX, xBytes, hostX.data(), xBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dGamma, cBytes, hostGamma.data(), cBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dBeta, cBytes, hostBeta.data(), cBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dTiling, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(channel_batch_standardize)(BLOCK_DIM, stream, dX, dGamma, dBeta, dY, dTiling);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(hostY.data(), xBytes, dY, xBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteBin("./output/output_y.bin", hostY.data(), xBytes);

    aclrtFree(dX);
    aclrtFree(dY);
    aclrtFree(dGamma);
    aclrtFree(dBeta);
    aclrtFree(dTiling);
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
    printf("channel_batch_standardize done\n");
    return 0;
}
