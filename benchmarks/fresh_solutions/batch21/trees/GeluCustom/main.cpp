#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <vector>
#include "acl/acl.h"
#include "aclrtlaunch_erf_gate_activation.h"

struct ErfGateActivationTiling {
    uint32_t totalLength;
    uint32_t blockLength;
    uint32_t tileLength;
};

#define ACL_CALL(f)                                                     \
    {                                                                   \
        aclError err = (f);                                             \
        if (err != ACL_SUCCESS) {                                       \
            std::cerr << #f << " failed: " << err << std::endl;         \
            return -1;                                                  \
        }                                                               \
    }

int main()
{
    constexpr uint32_t kRows = 512;
    constexpr uint32_t kCols = 8192;
    constexpr uint32_t kTotal = kRows * kCols;
    constexpr uint32_t kCores = 40;
    constexpr uint32_t kTile = 4096;  // 6 tile-sized buffers (2x in, 2x out, 4 scratch) fit comfortably

    ErfGateActivationTiling tiling;
    tiling.totalLength = kTotal;
    tiling.blockLength = ((kTotal + kCores - 1) / kCores + 7) / 8 * 8;
    tiling.tileLength = kTile;
    uint32_t blockDim = (kTotal + tiling.blockLength - 1) / tiling.blockLength;

    std::vector<float> host(kTotal);
    {
        std::ifstream in("./input/input_x.bin", std::ios::binary);
        if (!in.read(reinterpret_cast<char *>(host.data()), kTotal * sizeof(float))) {
            std::cerr << "missing ./input/input_x.bin" << std::endl;
            return -1;
        }
    }

    ACL_CALL(aclInit(nullptr));
    ACL_CALL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    ACL_CALL(aclrtCreateStream(&stream));

    const size_t bytes = sizeof(float) * kTotal;
    void *xDev = nullptr, *yDev = nullptr, *tDev = nullptr;
    ACL_CALL(aclrtMalloc(&xDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&yDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMalloc(&tDev, sizeof(tiling), ACL_MEM_MALLOC_HUGE_FIRST));
    ACL_CALL(aclrtMemcpy(xDev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    ACL_CALL(aclrtMemcpy(tDev, sizeof(tiling), &tiling, sizeof(tiling), ACL_MEMCPY_HOST_TO_DEVICE));

    ACLRT_LAUNCH_KERNEL(erf_gate_activation)(blockDim, stream, xDev, yDev, tDev);
    ACL_CALL(aclrtSynchronizeStream(stream));

    ACL_CALL(aclrtMemcpy(host.data(), bytes, yDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    std::ofstream("./output/output_y.bin", std::ios::binary)
        .write(reinterpret_cast<const char *>(host.data()), bytes);

    aclrtFree(xDev);
    aclrtFree(yDev);
    aclrtFree(tDev);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::cout << "ok: " << kTotal << " elements on " << blockDim << " cores" << std::endl;
    return 0;
}
