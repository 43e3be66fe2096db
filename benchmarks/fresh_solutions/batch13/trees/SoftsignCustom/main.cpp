/*
 * ratio_squash host: loads x, runs y = x / (1 + |x|) on 32 cores, saves y.
 */
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_ratio_squash.h"

struct RatioSquashTiling {
    uint32_t blockLength;
    uint32_t tileNum;
    uint32_t tileLength;
};

#define CHECK_ACL(x)                                                                      \
    do {                                                                                  \
        aclError __ret = x;                                                               \
        if (__ret != ACL_ERROR_NONE) {                                                    \
            std::cerr << __FILE__ << ":" << __LINE__ << " aclError:" << __ret << std::endl; \
            return 1;                                                                     \
        }                                                                                 \
    } while (0)

int main()
{
    constexpr uint32_t kBatch = 1024;
    constexpr uint32_t kDim = 32768;
    constexpr uint32_t kBlockDim = 32;
    constexpr uint32_t kBufferNum = 2;
    constexpr uint32_t kTileLength = 8192;

    const size_t total = static_cast<size_t>(kBatch) * kDim;
    const size_t bytes = total * sizeof(float);

    RatioSquashTiling tiling;
    tiling.blockLength = static_cast<uint32_t>(total / kBlockDim);
    tiling.tileLength = kTileLength;
    tiling.tileNum = tiling.blockLength / kTileLength / kBufferNum;
    if (tiling.blockLength % (kTileLength * kBufferNum) != 0) {
        std::cerr << "shape must split evenly into tiles" << std::endl;
        return 1;
    }

    std::vector<float> x(total), y(total);
    std::ifstream fin("./input/input_x.bin", std::ios::binary);
    if (!fin.read(reinterpret_cast<char *>(x.data()), bytes)) {
        std::cerr << "cannot read ./input/input_x.bin" << std::endl;
        return 1;
    }

    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *xDevice = nullptr, *yDevice = nullptr, *tilingDevice = nullptr;
    CHECK_ACL(aclrtMalloc((void **)&xDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&tilingDevice, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(xDevice, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(tilingDevice, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(ratio_squash)(kBlockDim, stream, xDevice, yDevice, tilingDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(y.data(), bytes, yDevice, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream fout("./output/output_y.bin", std::ios::binary);
    fout.write(reinterpret_cast<const char *>(y.data()), bytes);

    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(tilingDevice));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
    return 0;
}
