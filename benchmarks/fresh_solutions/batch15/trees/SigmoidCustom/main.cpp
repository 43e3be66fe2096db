/*
 * main.cpp - runs logistic_squash on a (ROWS, COLS) float32 matrix.
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_logistic_squash.h"

#define CHECK_ACL(x)                                                             \
    do {                                                                         \
        aclError __ret = x;                                                      \
        if (__ret != ACL_ERROR_NONE) {                                           \
            std::fprintf(stderr, "%s:%d aclError:%d\n", __FILE__, __LINE__, __ret); \
        }                                                                        \
    } while (0)

struct LogisticSquashTiling {
    uint64_t totalLength;
    uint64_t blockLength;
    uint32_t tileLength;
    uint32_t reserved;
};

int main()
{
    constexpr uint64_t ROWS = 512;
    constexpr uint64_t COLS = 16384;
    constexpr uint32_t BLOCK_DIM = 48;
    constexpr uint32_t TILE = 8192;   // 32 KB per buffer, 4 buffers in flight

    LogisticSquashTiling tiling{};
    tiling.totalLength = ROWS * COLS;
    uint64_t per = (tiling.totalLength + BLOCK_DIM - 1) / BLOCK_DIM;
    tiling.blockLength = (per + 7) / 8 * 8;     // keep core slices 32B aligned
    tiling.tileLength = TILE;
    uint32_t blockDim = static_cast<uint32_t>((tiling.totalLength + tiling.blockLength - 1) / tiling.blockLength);

    size_t bytes = tiling.totalLength * sizeof(float);
    std::vector<float> host(tiling.totalLength);
    std::ifstream fin("./input/input_x.bin", std::ios::binary);
    if (!fin.read(reinterpret_cast<char *>(host.data()), bytes)) {
        std::fprintf(stderr, "failed to read ./input/input_x.bin\n");
        return 1;
    }

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *xDevice = nullptr, *yDevice = nullptr, *tilingDevice = nullptr;
    CHECK_ACL(aclrtMalloc((void **)&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tilingDevice, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(xDevice, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(logistic_squash)(blockDim, stream, xDevice, yDevice, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(host.data(), bytes, yDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output_y.bin", std::ios::binary).write(reinterpret_cast<const char *>(host.data()), bytes);

    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return 0;
}
